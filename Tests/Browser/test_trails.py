"""Trails in the browser: Browse with suggested trails near the map and every trail, search by
name or town, a trail's page with its General Information and Traversal sections, elevation
chart and the five screens the seed lists, the trail drawn on the map in its tier's colour,
favourites, and each screen a link that opens cold. Requirements: TRL-1 (the catalogue and its
pages), TRL-2 (browse, search, the map and "Search this area"), TRL-7 (favourites)."""
from __future__ import annotations

import re

import pytest

from helpers import App, api


@pytest.fixture()
def app(driver, server) -> App:
    return App(driver, server.url)


def trails(app: App) -> dict:
    return app.js("return window.waymark.trails()")


def path(app: App) -> str:
    return app.js("return location.pathname")


ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def test_TRL_2_browse_search_and_open_a_trail_page_with_every_screen(app, server, artifacts):
    """TRL-2 TRL-1: Browse suggests trails near the map, lists every trail, finds a town; a card
    opens the page with figures in the person's units, the chart and the five screens."""
    app.open("/trails")
    app.wait(lambda: len(app.els("#trails-suggested .trail-card")) > 0, timeout=20, message="suggested trails")
    assert app.el("#nav-trails").get_attribute("aria-current") == "page"
    assert len(trails(app)["onMap"]) > 0, "the suggested trails are drawn on the map"
    all_heading = app.el("#trails-all h3").text
    assert re.match(r"All trails \(\d+\)", all_heading), all_heading
    app.screenshot(artifacts / "trails-phone-browse.png")

    # The Waterfalls overlay keeps only trails with a waterfall, here and on the map; it is remembered.
    _, falls = api(server.url, "GET", "/v1/trails?feature=waterfall&limit=100")
    app.js("arguments[0].click()", app.el('#trails-filters input[data-feature="waterfall"]'))
    app.wait(lambda: app.el("#trails-all h3").text == f"All trails ({falls['total']})", message="only trails with a waterfall")
    assert set(trails(app)["onMap"]) <= {t["id"] for t in falls["trails"]}
    app.js("arguments[0].click()", app.el('#trails-filters input[data-feature="waterfall"]'))
    app.wait(lambda: app.el("#trails-all h3").text == all_heading, message="every trail again")

    # Moving the map offers "Search this area": up to 20 trails crossing the view, drawn on the map.
    app.js("window.waymark.map.setView({center: {lat: 34.245, lon: -116.92}, zoom: 12})")
    app.wait(lambda: app.el("#trails-search-area").is_displayed(), message="Search this area after a move")
    app.js("arguments[0].click()", app.el("#trails-search-area"))
    app.wait(lambda: app.els("#trails-area .trail-card"), message="the trails in this area")
    found = [c.get_attribute("data-trail") for c in app.els("#trails-area .trail-card")]
    assert 0 < len(found) <= 20 and "castle-rock" in found, found
    assert set(trails(app)["onMap"]) == set(found)
    app.screenshot(artifacts / "trails-phone-area.png")

    # A long press on the map says where that is; on a trail, it opens the trail.
    size = app.js("return window.waymark.map.size()")
    at = app.el("#map").rect
    spot = (at["x"] + size["width"] * 0.5, at["y"] + 40)
    app.long_press_drag(spot, hold=0.8)
    app.wait(lambda: app.el("#trails-coordinates").is_displayed(), message="the coordinates of a long press")
    assert re.fullmatch(r"-?\d+\.\d{5}, -?\d+\.\d{5}", app.el("#trails-coordinates").text), app.el("#trails-coordinates").text

    box = app.el("#trails-search")
    box.send_keys("big bear")
    app.wait(lambda: "Big Bear Lake" in app.el("#trails-results").text, message="trails in Big Bear Lake")
    box.clear()
    box.send_keys("redlands")
    app.wait(lambda: "Near Redlands" in app.el("#trails-results").text, message="trails near a town of the gazetteer")
    box.clear()
    box.send_keys("zzqx")
    app.wait(lambda: "No trail or town matches" in app.el("#trails-results").text, message="an empty search says what to try")

    app.open("/trails/castle-rock")
    app.wait(lambda: app.els(".trail-profile"), timeout=20, message="the trail page with its chart")
    page = app.el(".trail-page").text
    assert "Castle Rock Trail" in page and "General information" in page and "Traversal" in page
    assert re.search(r"Length\s+\d+\.\d (mi|km)", page), page
    assert "Moderate" in page and "effort rating" in page, "a computed tier says where it comes from"
    assert "Steps" in page and "about" in page
    assert not ISO.search(page)
    assert trails(app)["open"] == "castle-rock"
    # TRL-3: today and three days, a picture and the high and low in °F (an en-US browser), the credit.
    app.wait(lambda: len(app.els("#trail-weather .weather-day")) == 4, timeout=15, message="the four-day forecast")
    weather = app.el("#trail-weather").text
    assert "Today" in weather and "°F" in weather and "Weather data by Open-Meteo.com" in weather, weather
    assert app.el("#trail-weather .weather-day").get_attribute("data-condition") == "partlyCloudy"
    directions = app.el(".trail-actions a").get_attribute("href")
    assert "34.2353" in directions and "-116.9681" in directions
    app.screenshot(artifacts / "trails-phone-page.png")

    for key, heading, expect in [("info", "Additional information", "Adventure Pass"), ("contacts", "Emergency contacts", "911"),
                                 ("safety", "Safety guidelines", "Warning signs"), ("points", "Points of interest", "Castle Rock"),
                                 ("amenities", "Amenities", "Trail markers")]:
        app.open(f"/trails/castle-rock/{key}")
        app.wait(lambda: app.el(".trail-page").get_attribute("data-screen") == key, timeout=15, message=key)
        text = app.el(".trail-page").text
        assert heading in text and expect in text, f"{key}: {text[:300]}"
    app.screenshot(artifacts / "trails-phone-safety.png")

    app.open("/trails/no-such-trail")
    app.wait(lambda: "not in the catalogue" in app.el("#trails-body").text, message="a gone trail says so")


def test_TRL_7_a_star_keeps_a_trail_among_the_favourites(app, server, artifacts):
    """TRL-7: the star on a trail's page adds it to the favourites Browse shows, and takes it off."""
    app.open("/trails/heart-rock")
    app.wait(lambda: app.els("#trail-star"), timeout=20, message="the star")
    star = app.el("#trail-star")
    assert star.get_attribute("aria-pressed") == "false"
    app.js("arguments[0].click()", star)
    app.wait(lambda: app.el("#trail-star").get_attribute("aria-pressed") == "true", timeout=15, message="starred")
    assert "heart-rock" in trails(app)["favourites"]
    app.open("/trails")
    app.wait(lambda: "Heart Rock Trail" in app.el("#trails-favourites").text, timeout=20, message="the favourite on Browse")
    assert not any(c.get_attribute("data-trail") == "heart-rock" for c in app.els("#trails-suggested .trail-card")), \
        "a starred trail is not suggested again"
    app.open("/trails/heart-rock")
    app.wait(lambda: app.els("#trail-star"), timeout=20, message="the star again")
    app.wait(lambda: app.el("#trail-star").get_attribute("aria-pressed") == "true", message="still starred")
    app.js("arguments[0].click()", app.el("#trail-star"))
    app.wait(lambda: app.el("#trail-star").get_attribute("aria-pressed") == "false", timeout=15, message="unstarred")


def test_TRL_4_leave_a_comment_vote_and_report_on_a_trail_page(app, server, artifacts):
    """TRL-4: a guest is asked to sign in; a member leaves 1–5 stars and text, sees it on top in
    its own colour, votes another's comment up and reports it; edits and deletes their own."""
    import json
    import secrets
    password = "Trails#2026pass"
    status, ana = api(server.url, "POST", "/v1/accounts", {"username": f"ana{secrets.token_hex(3)}", "password": password})
    assert status == 201, ana
    status, _ = api(server.url, "PUT", "/v1/trails/big-falls/comments/me", {"stars": 5, "text": "Go early: the falls are in shade until ten."}, token=ana["token"])
    assert status in (200, 201)
    status, ben = api(server.url, "POST", "/v1/accounts", {"username": f"ben{secrets.token_hex(3)}", "password": password})
    assert status == 201, ben

    app.open("/trails/big-falls")
    app.wait(lambda: "Sign in" in app.el("#trail-comment-mine").text, timeout=20, message="a guest is asked to sign in")
    assert "Go early" in app.el("#trail-comments").text

    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", ben["token"], json.dumps(ben["user"]))
    app.open("/trails/big-falls")
    leave = app.wait(lambda: app.els("#trail-comment-leave"), timeout=20, message="Leave a comment")[0]
    app.js("arguments[0].click()", leave)
    app.js("arguments[0].click()", app.el('.trail-star-pick[data-stars="4"]'))
    app.el("#trail-comment-text").send_keys("Short and shady; slippery rocks by the pool.")
    app.js("arguments[0].click()", app.el("#trail-comment-save"))
    app.wait(lambda: "Your comment" in app.el("#trail-comment-mine").text, timeout=15, message="the comment saved, on top")
    mine = app.el("#trail-comment-mine .trail-comment.mine")
    assert "★★★★☆" in mine.text and "slippery rocks" in mine.text

    up = app.el('#trail-comments .trail-vote[data-vote="up"]')
    app.js("arguments[0].click()", up)
    app.wait(lambda: app.el('#trail-comments .trail-vote[data-vote="up"]').get_attribute("aria-pressed") == "true", message="voted up")
    assert app.el("#trail-comments .trail-comment-score").text == "1"
    app.js("arguments[0].click()", app.el("#trail-comments .trail-report"))
    app.wait(lambda: app.dialog("report-comment"), message="the report dialog")
    app.dialog_action("report-comment", "spam")
    app.screenshot(artifacts / "trails-phone-comments.png")

    status, page = api(server.url, "GET", "/v1/trails/big-falls/comments", token=ben["token"])
    assert page["mine"]["stars"] == 4 and page["comments"][0]["myVote"] == "up"


def test_TRL_1_the_exported_gpx_reads_in_an_independent_parser(server):
    """TRL-1 TRL-11: a trail's GPX, read by gpxpy (an independent GPX library), has the walked path
    with its elevation, the points of interest as waypoints, and the length the page gives."""
    import urllib.request

    import gpxpy

    with urllib.request.urlopen(f"{server.url}/v1/trails/castle-rock/gpx") as r:
        assert r.headers["Content-Type"].startswith("application/gpx+xml")
        gpx = gpxpy.parse(r.read().decode())
    _, page = api(server.url, "GET", "/v1/trails/castle-rock")
    assert gpx.version == "1.1" and gpx.name == "Castle Rock Trail"
    points = [p for t in gpx.tracks for s in t.segments for p in s.points]
    assert len(points) > 100 and all(p.elevation is not None for p in points)
    assert len(gpx.waypoints) == len(page["points"])
    # gpxpy measures on its own (a different Earth radius and formula): within half a percent.
    assert abs(gpx.length_2d() - page["measures"]["lengthMetres"]) / page["measures"]["lengthMetres"] < 0.005
