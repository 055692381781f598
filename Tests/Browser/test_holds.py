"""Soft holds in the web app (PRK-9, PRK-10, seed Feature 7): two real browsers, a real server,
sensor changes through the real gateway ingest endpoint."""
from __future__ import annotations

import math
import time

import pytest

from conftest import make_driver
from helpers import App, api, demo_permits

ALL_PERMITS = ["green", "yellow", "black", "handicap"]


def metres_from(point: dict, north: float, east: float) -> dict:
    lat, lon = point["latitude"], point["longitude"]
    return {"latitude": lat + north / 111_320, "longitude": lon + east / (111_320 * math.cos(math.radians(lat))),
            "accuracy": 5}


def far_from_pin(lot: dict, spots: list[dict], metres: float = 25) -> list[dict]:
    """Spots whose bar a tap can reach without hitting the lot's pin at the lot's centre."""
    c = lot["center"]
    def dist(s):
        dy = (s["center"]["latitude"] - c["latitude"]) * 111_320
        dx = (s["center"]["longitude"] - c["longitude"]) * 111_320 * math.cos(math.radians(c["latitude"]))
        return math.hypot(dx, dy)
    return [s for s in spots if dist(s) > metres and s["level"] == 0]


def free_spot(server, lot: dict, spot: dict) -> None:
    """Reports the spot's sensor free and waits until the server shows it free."""
    server.post_events(server.key, [(spot["sensorId"], False)])
    deadline = time.time() + 10
    while server.states(lot["id"])[spot["ordinal"]] != "f":
        assert time.time() < deadline, f"spot {spot['label']} did not become free"
        time.sleep(0.1)



def hold(app: App):
    return app.js("return window.waymark.hold()")


def tap_spot(app: App, lot: dict, spot: dict):
    """Zooms to the spot, taps its bar and returns the hold button under the spot line."""
    where = {"lat": spot["center"]["latitude"], "lon": spot["center"]["longitude"]}
    app.set_view(center=where, zoom=19, bearing=0)
    free = app.palette()["spot-free"]
    # The colour needs both the spot's state and its bar on the map (they load separately).
    app.wait(lambda: app.spot_colour(lot["id"], spot["ordinal"]) == free, message=f"spot {spot['label']} drawn free")
    app.frame()
    p = app.js("return window.waymark.map.project(arguments[0])", where)
    app.tap(p["x"], p["y"])
    line = app.wait(lambda: app.js("const e = document.querySelector('#lot-card [data-testid=spot-line]'); return e && e.textContent"),
                    message="spot line")
    assert line.startswith(f"Spot {spot['label']}") and "Free" in line, line
    # The sheet slides up; a click while it moves may land on the map instead.
    app.wait(lambda: app.js("const c = document.getElementById('lot-card');"
                            "return !c.classList.contains('entering') && c.getAnimations().length === 0"), message="card in place")
    return app.wait(lambda: app.js("return document.querySelector('#lot-card [data-testid=hold-spot]')"), message="hold button")


def dialog_text(app: App) -> str:
    return app.js("const d = document.getElementById('dialog'); return d.querySelector('.dialog-title').textContent + '\\n' + "
                  "d.querySelector('.dialog-message').textContent")


def test_prk9_hold_a_free_spot_others_see_it_held_live_and_cannot_hold_it_too(server, artifacts):
    """PRK-9: tap a free spot → the permit warning shows in red under the button before
    confirming → the confirmation says 10 minutes → held: yellow, countdown, directions, walking
    line. A second guest, who had the same spot's confirmation open, sees it turn yellow live and
    is told it is no longer free (the server's first-request-wins). Cancel frees it for both."""
    lot = server.lot("G")
    # An accessible spot needs the Handicap permit at all times, which a new guest lacks.
    spot = next(s for s in far_from_pin(lot, server.spots(lot["id"])) if s["category"] == "handicap")
    free_spot(server, lot, spot)
    a = App(make_driver(), server.url)
    b = App(make_driver(), server.url)
    try:
        a.open()
        b.open()
        here = metres_from(spot["center"], north=-60, east=-80)
        a.cdp("Browser.grantPermissions", {"origin": a.base, "permissions": ["geolocation"]})
        a.cdp("Emulation.setGeolocationOverride", here)
        palette = a.palette()

        button_a = tap_spot(a, lot, spot)
        warning = a.wait(lambda: a.js("const w = document.querySelector('#lot-card [data-testid=permit-warning]');"
                                      "return w && !w.hidden && w.textContent"), message="permit warning before confirming")
        assert warning == "This spot needs a Handicap permit now."
        colour = a.js("return getComputedStyle(document.querySelector('#lot-card [data-testid=permit-warning]')).color")
        # The danger red as text (--danger-text: the same red, dark enough to read on the card).
        assert colour == a.js("const p = document.createElement('p'); p.style.color = 'var(--danger-text)'; document.body.append(p);"
                              "const c = getComputedStyle(p).color; p.remove(); return c"), "the warning is red"
        red, green, blue = (int(x) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
        assert red > green + 80 and red > blue + 80, colour
        a.screenshot(artifacts / "hold-offer.png")
        button_b = tap_spot(b, lot, spot)

        # Both ask; the confirmation warns that the hold lasts 10 minutes and repeats the permit warning.
        button_a.click()
        a.dialog("hold-confirm")
        assert "10 minutes" in dialog_text(a)
        assert a.el("#dialog [data-testid=dialog-warning]").text == warning
        a.screenshot(artifacts / "hold-confirm.png")
        button_b.click()
        b.dialog("hold-confirm")
        assert "10 minutes" in dialog_text(b)

        a.dialog_action("hold-confirm", "confirm")
        held = a.wait(lambda: hold(a), message="A's hold")
        assert held["spotId"] == spot["id"] and held["status"] == "active"
        assert held["permitWarning"] == warning, "the server's warning matches the one shown before confirming"
        a.wait(lambda: a.spot_colour(lot["id"], spot["ordinal"]) == palette["spot-held"], message="yellow for A")
        # B did nothing but keep the page open: the change came over the live stream.
        b.wait(lambda: b.spot_colour(lot["id"], spot["ordinal"]) == palette["spot-held"], message="yellow for B, live")
        assert server.states(lot["id"])[spot["ordinal"]] == "h"

        # The hold bar: countdown from 10 minutes, directions, the server's permit warning, a walking line.
        bar = a.el("#hold-bar")
        assert bar.is_displayed() and bar.get_attribute("data-status") == "active"
        assert f"Spot {spot['label']}" in a.el("#hold-bar-title").text
        remaining = int(a.el("#hold-bar [data-testid=hold-timer]").get_attribute("data-remaining"))
        assert 570 <= remaining <= 600, remaining
        assert a.el("#hold-bar [data-testid=hold-timer]").text.startswith("9:") or remaining == 600
        assert a.el("#hold-bar [data-testid=hold-permit-warning]").text == warning
        destination = f"{spot['center']['latitude']:.6f},{spot['center']['longitude']:.6f}"
        assert destination in a.el("#hold-bar [data-testid=directions-google]").get_attribute("href")
        assert destination in a.el("#hold-bar [data-testid=directions-apple]").get_attribute("href")
        a.wait(lambda: (hold(a) or {}).get("walk"), message="walking line from the phone to the spot")
        a.wait(lambda: "away" in a.el("#hold-bar [data-testid=hold-distance]").text, message="distance")
        a.set_view(center={"lat": spot["center"]["latitude"], "lon": spot["center"]["longitude"]}, zoom=17.5, bearing=0)
        walk = hold(a)["walk"]
        start = a.js("return window.waymark.map.project(arguments[0])", {"lat": here["latitude"], "lon": here["longitude"]})
        end = a.js("return window.waymark.map.project(arguments[0])",
                   {"lat": spot["center"]["latitude"], "lon": spot["center"]["longitude"]})
        assert walk["from"] == pytest.approx(start, abs=1.5) and walk["to"] == pytest.approx(end, abs=1.5)
        a.screenshot(artifacts / "hold-active.png")

        # B confirms second and is told, in words, that the spot is gone.
        b.dialog_action("hold-confirm", "confirm")
        b.dialog("hold-not-free")
        assert "no longer free" in dialog_text(b).lower()
        b.screenshot(artifacts / "hold-not-free.png")
        b.dialog_action("hold-not-free", "ok")
        assert hold(b) is None and b.el("#hold-bar").get_attribute("hidden") is not None
        assert b.js("return document.querySelector('#lot-card [data-testid=hold-spot]').disabled") is True

        # Cancel (it asks first): the spot is free again, for B too.
        a.el('#hold-bar button[data-action="cancel"]').click()
        a.dialog_action("hold-cancel", "confirm")
        a.wait(lambda: hold(a) is None, message="hold cancelled")
        b.wait(lambda: b.spot_colour(lot["id"], spot["ordinal"]) == palette["spot-free"], message="free again for B")
        assert server.states(lot["id"])[spot["ordinal"]] == "f"
        assert a.console_errors() == []
        # The refused request shows in the console as a failed load (409); nothing else may.
        assert [e for e in b.console_errors() if "409" not in e] == []
    finally:
        a.d.quit()
        b.d.quit()


def test_prk10_was_it_you_no_redirects_to_another_held_spot_then_yes_saves_the_car(server, driver, artifacts):
    """PRK-10: the held spot's sensor reports a car (real gateway ingest) → the app asks "Was it
    you?" at once; No → the hold moves to the nearest free spot the user may use, shown with its
    own directions; when that one is taken too, Yes ends the hold and "Save where I parked"
    keeps the spot on this device only (PRK-11)."""
    status, device = api(server.url, "POST", "/v1/devices")
    assert status == 201, device
    token = device["token"]
    status, _ = api(server.url, "PUT", "/v1/me/permits", demo_permits(server.url, ALL_PERMITS), token=token)
    assert status == 200
    lot = server.lot("G")
    spots = [s for s in far_from_pin(lot, server.spots(lot["id"])) if s["category"] == "regular"]
    spot = spots[len(spots) // 2]
    free_spot(server, lot, spot)

    app = App(driver, server.url)
    # The app starts as this guest, who holds every permit (so some spot is always allowed).
    app.cdp("Page.addScriptToEvaluateOnNewDocument",
            {"source": f"localStorage.setItem('waymark.device.token', {token!r})"})
    app.cdp("Browser.grantPermissions", {"origin": app.base, "permissions": ["geolocation"]})
    app.cdp("Emulation.setGeolocationOverride", metres_from(spot["center"], north=100, east=0))
    app.open()
    palette = app.palette()
    tap_spot(app, lot, spot).click()
    app.dialog_action("hold-confirm", "confirm")
    first = app.wait(lambda: hold(app), message="hold")
    assert first["spotId"] == spot["id"]

    # A car arrives on the held spot; the sensor tells the gateway, the gateway tells the server.
    sensed = time.time()
    server.post_events(server.key, [(spot["sensorId"], True)])
    app.dialog("hold-asking")
    assert time.time() - sensed < 5, "asked as soon as the live stream showed the spot taken, not at the next 10 s poll"
    assert "Was it you?" in dialog_text(app)
    assert app.el("#hold-bar").get_attribute("data-status") == "asking"
    assert "Was it you?" in app.el("#hold-bar [data-testid=hold-question]").text
    app.screenshot(artifacts / "hold-was-it-you.png")
    app.dialog_action("hold-asking", "no")

    moved = app.wait(lambda: (h := hold(app)) and h["spotId"] != spot["id"] and h["status"] == "active" and h,
                     message="a new hold on another spot")
    assert moved["redirects"] == 1
    status, listed = api(server.url, "GET", "/v1/holds", token=token)
    assert status == 200
    current, previous = listed["holds"][0], listed["holds"][1]
    assert current["id"] == moved["id"] and current["status"] == "active"
    assert previous["id"] == first["id"] and previous["outcome"] == "moved" and previous["movedTo"] == moved["id"]
    assert current["expiresAt"] == first["expiresAt"], "the new hold only has the time that was left"
    assert f"Spot {current['label']}" in app.el("#hold-bar-title").text
    assert "was taken" in app.el("#hold-bar [data-testid=hold-note]").text
    destination = f"{current['spotCenter']['latitude']:.6f},{current['spotCenter']['longitude']:.6f}"
    assert destination in app.el("#hold-bar [data-testid=directions-google]").get_attribute("href")
    app.wait(lambda: app.spot_colour(current["lotId"], current["ordinal"]) == palette["spot-held"], message="new spot yellow")
    app.wait(lambda: app.spot_colour(lot["id"], spot["ordinal"]) == palette["spot-taken"], message="old spot taken")
    def centred_on_new_spot():
        c = app.view()["center"]
        return abs(c["lat"] - current["spotCenter"]["latitude"]) < 2e-5 and abs(c["lon"] - current["spotCenter"]["longitude"]) < 2e-5
    app.wait(centred_on_new_spot, message="the map to move to the new spot")
    app.screenshot(artifacts / "hold-redirected.png")

    # This time it was us: the hold ends and the car can be saved where the spot is.
    new_spot = next(s for s in server.spots(current["lotId"]) if s["id"] == current["spotId"])
    server.post_events(server.key, [(new_spot["sensorId"], True)])
    app.dialog_action("hold-asking", "yes")
    app.dialog_action("hold-parked", "confirm")
    car = app.wait(lambda: app.js("return window.waymark.car()"), message="car saved")
    assert car["lat"] == pytest.approx(current["spotCenter"]["latitude"]) and car["lon"] == pytest.approx(current["spotCenter"]["longitude"])
    assert hold(app) is None
    status, listed = api(server.url, "GET", "/v1/holds", token=token)
    assert listed["holds"][0]["id"] == current["id"] and listed["holds"][0]["outcome"] == "parked"
    errors = app.console_errors()
    assert errors == [], errors
    server.post_events(server.key, [(spot["sensorId"], False), (new_spot["sensorId"], False)])
