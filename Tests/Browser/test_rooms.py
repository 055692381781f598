"""Rooms in the browser: the demo campus (CSUSB San Bernardino) on the map, one search box for
rooms, buildings and people, a room's floor plan with its level switcher, and a route across
buildings and floors drawn level by level, each screen a link that opens cold. Requirements:
WAY-2 (maps and floor plans), WAY-3 (search), WAY-4 (routes to rooms, people and the nearest
restroom), WAY-5 (across floors, step-free), WAY-6 (the directory's people)."""
from __future__ import annotations

import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver
from helpers import App, api


@pytest.fixture()
def app(driver, server) -> App:
    return App(driver, server.url)


def rooms(app: App) -> dict:
    return app.js("return window.waymark.rooms()")


def path(app: App) -> str:
    return app.js("return location.pathname")


def venue_id(server, name: str) -> str:
    _, body = api(server.url, "GET", "/v1/venues")
    return next(v["id"] for v in body["venues"] if v["name"] == name)


def place(server, q: str, kind: str | None = None, venue: str | None = None) -> dict:
    query = {"q": q, "limit": 10} | ({"venueId": venue} if venue else {})
    _, body = api(server.url, "GET", "/v1/places?" + urllib.parse.urlencode(query))
    return next(p for p in body["places"] if kind is None or p["kind"] == kind)


def search(app: App, text: str) -> list[str]:
    box = app.el("#rooms-search")
    box.clear()
    box.send_keys(text)
    app.wait(lambda: app.js("return document.getElementById('rooms-results').dataset.query") == text, message=f"results for {text}")
    return [e.text for e in app.els("#rooms-results .rooms-result-title")]


def test_search_a_room_see_its_floor_plan_and_walk_there_across_buildings_and_floors(app, server, artifacts):
    """WAY-2 WAY-3 WAY-4 WAY-5: search (typing slips forgiven) → the room on its floor plan → a
    route from the library's fifth floor, its level change named, drawn level by level."""
    sb = venue_id(server, "CSUSB San Bernardino")
    app.open("/rooms")
    app.wait(lambda: rooms(app)["venue"] == sb, message="the main campus opens first")
    assert app.el("#rooms-campus").get_attribute("value") == sb
    app.wait(lambda: path(app) in ("/rooms", f"/rooms/{sb}"), message="the area's path")
    assert app.el("#nav-rooms").get_attribute("aria-current") == "page"
    app.screenshot(artifacts / "rooms-phone-campus.png")

    assert search(app, "pfua libary")[0] == "John M. Pfau Library", "a slip in each word is forgiven"
    titles = search(app, "jb 102")
    assert titles[0] == "JB-102"
    app.el("#rooms-results .rooms-result").click()
    room = place(server, "JB-102")
    app.wait(lambda: path(app) == f"/rooms/{sb}/place/{room['id']}", message="the room's link")
    state = app.wait(lambda: rooms(app) if rooms(app)["level"] == room["levelId"] else None, message="the room's level open")
    assert state["selected"] == room["id"]
    assert app.el("#rooms-place-title").text == "JB-102"
    pressed = [b.text for b in app.els("#rooms-levels .rooms-level[aria-pressed='true']")]
    assert pressed == ["1"], pressed
    app.audit(force=True)
    app.screenshot(artifacts / "rooms-phone-room.png")

    # Directions, starting at a room in another building, five floors up.
    app.el("#rooms-directions").click()
    start = app.el("#rooms-from")
    start.send_keys("PL-501")
    app.wait(lambda: app.js("return document.querySelector('.rooms-start .rooms-results').dataset.query") == "PL-501", message="start results for the whole room number")
    app.els(".rooms-start .rooms-result")[0].click()
    app.wait(lambda: app.els("#rooms-steps .rooms-step"), message="the route's steps")
    steps = [e.text.split("\n")[0] for e in app.els("#rooms-steps .rooms-step-text")]
    assert any(s.startswith("Take the elevator down to") or s.startswith("Take the stairs down to") for s in steps), steps
    assert any(s.startswith("Leave John M. Pfau Library.") for s in steps), steps
    assert steps[-1].startswith("Arrive at JB-102"), steps
    assert app.el("#rooms-route-title").text == "To JB-102"
    summary = app.el("#rooms-summary").text
    assert "min" in summary and ("ft" in summary or "mi" in summary), "en-US: walking time and imperial distance"
    route_path = path(app)
    assert route_path.startswith(f"/rooms/{sb}/route/") and route_path.endswith(f"/{room['id']}")

    # Drawn level by level: the first level shown is the start's; a later step shows its own.
    state = rooms(app)
    first_level = next(s["level"] for s in state["steps"] if s["level"])
    assert state["level"] == first_level
    arrive = app.els("#rooms-steps .rooms-step")[-1]
    arrive.click()
    app.wait(lambda: rooms(app)["level"] == room["levelId"], message="the arrival's level shown")
    app.audit(force=True)
    app.screenshot(artifacts / "rooms-phone-route.png")

    # The route's link opens cold, as someone it was shared with sees it.
    app.open(route_path)
    app.wait(lambda: len(rooms(app)["steps"]) == len(steps), message="the shared route")
    # The steps are known a moment before the sheet that shows them is drawn.
    app.wait(lambda: app.els("#rooms-route-title") and app.el("#rooms-route-title").text == "To JB-102", message="the shared route's title")


def test_a_person_from_the_directory_and_the_nearest_restroom_on_a_desktop(server, artifacts):
    """WAY-4 WAY-6 WAY-7: a shared link to a person opens their card and office; the nearest
    restroom from where the device is, on a wide screen with the sheet beside the map."""
    driver = make_driver(1280, 800, 1, False)
    try:
        app = App(driver, server.url)
        sb = venue_id(server, "CSUSB San Bernardino")
        person = place(server, "professor garcia", kind="person", venue=sb)
        app.open(f"/rooms/{sb}/place/{person['id']}")
        app.wait(lambda: rooms(app)["selected"] == person["id"], message="the person chosen")
        assert app.el("#rooms-place-title").text == person["title"]
        app.wait(lambda: "Office hours:" in app.el(".rooms-person").text, message="office hours")
        assert app.el(".rooms-person a[href^='mailto:']").text.endswith("@example.edu")
        assert rooms(app)["level"] == person["levelId"], "their office's level is open"
        sheet = app.el("#rooms").rect
        assert sheet["x"] > 60 and sheet["width"] <= 400, "beside the map on a wide screen"
        app.screenshot(artifacts / "rooms-desktop-person.png")

        # Where the device says it is: just outside Jack H. Brown Hall.
        jb = place(server, "Jack H. Brown Hall", kind="building", venue=sb)
        app.cdp("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})
        app.cdp("Emulation.setGeolocationOverride", {"latitude": jb["position"]["latitude"] - 0.0003,
                                                     "longitude": jb["position"]["longitude"], "accuracy": 10})
        app.el(".rooms-place .dialog-button:last-child").click()  # Close
        app.wait(lambda: app.els(".rooms-nearest .chip"), message="the nearest buttons")
        next(b for b in app.els(".rooms-nearest .chip") if b.text == "Restroom").click()
        app.wait(lambda: app.els("#rooms-steps .rooms-step"), message="a route to the nearest restroom")
        assert "Restroom" in app.el("#rooms-route-title").text or "restroom" in app.el("#rooms-route-title").text.lower()
        assert "/nearest-restroom" in path(app)
        app.audit(force=True)
        app.screenshot(artifacts / "rooms-desktop-nearest.png")
    finally:
        driver.quit()


def test_a_route_that_cannot_be_found_says_what_happened_and_what_to_try(app, server):
    """WAY-4: a link naming a place that is not on the campus shows why there are no directions."""
    sb = venue_id(server, "CSUSB San Bernardino")
    room = place(server, "JB-102", venue=sb)
    app.open(f"/rooms/{sb}/route/nowhere/{room['id']}")
    alert = app.wait(lambda: app.els(".rooms-route[role='alert']"), message="the refusal")[0]
    assert "No directions" in alert.text and "nowhere" in alert.text
    assert alert.find_element(By.XPATH, ".//button[normalize-space()='Close']")


def test_a_campus_link_for_a_campus_that_is_not_here_opens_the_main_campus(app, server):
    """WAY-2: an old or mistyped link is not a dead end."""
    app.open("/rooms/no-such-campus")
    sb = venue_id(server, "CSUSB San Bernardino")
    app.wait(lambda: rooms(app)["venue"] == sb, message="the main campus")
    assert path(app) == "/rooms"
