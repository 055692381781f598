"""Hikes in the browser (TRL-6): the Current Hike card's live figures come from the web app's
port of the core's rules (Web/trails/hike-stats.js); here both run on the same fixes — random
walks with pauses, vague fixes and impossible jumps — and must agree: the server saves what the
person saw."""
from __future__ import annotations

import math
import re
import random
import secrets
from datetime import datetime, timedelta, timezone

from helpers import App, api

PASSWORD = "Trails#2026pass"


def walk(rng: random.Random, head: dict) -> list[list[float]]:
    """[seconds, latitude, longitude, accuracy, elevation]: a walk with rests and a few bad fixes."""
    t, north, east, ele = 0.0, 0.0, 0.0, 1500.0
    out = []
    for _ in range(rng.randint(20, 200)):
        lat = head["latitude"] + north / 111_195
        lon = head["longitude"] + east / (111_195 * math.cos(math.radians(head["latitude"])))
        roll = rng.random()
        if roll < 0.04:
            out.append([round(t, 3), lat + 0.02, lon, 5.0, ele])                 # a jump of 2 km
        elif roll < 0.08:
            out.append([round(t, 3), lat, lon, 60.0, ele])                       # too vague
        else:
            out.append([round(t, 3), lat, lon, round(rng.uniform(3, 12), 1), round(ele, 1)])
        if rng.random() < 0.1:
            t += rng.uniform(60, 300)                                            # a rest
        else:
            heading = rng.uniform(0, 2 * math.pi)
            metres = rng.uniform(0, 25)
            north += metres * math.cos(heading)
            east += metres * math.sin(heading)
            ele += rng.uniform(-3, 4)
            t += rng.uniform(2, 20)
    return out


def test_TRL_6_the_live_figures_in_the_browser_agree_with_the_saved_ones(driver, server):
    status, ana = api(server.url, "POST", "/v1/accounts", {"username": f"ana{secrets.token_hex(3)}", "password": PASSWORD})
    assert status == 201, ana
    token = ana["token"]
    assert api(server.url, "PUT", "/v1/me/hiker-body", {"heightCentimetres": 172, "weightKilograms": 64, "birthYear": 1988}, token=token)[0] == 200
    _, page = api(server.url, "GET", "/v1/trails/heart-rock")
    head = page["summary"]["trailhead"]
    app = App(driver, server.url).open("/trails")
    rng = random.Random(2026)
    for n in range(12):
        fixes = walk(rng, head)
        start = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(days=1, hours=n)
        end = start + timedelta(seconds=fixes[-1][0] + rng.uniform(0, 120))
        body = {"trailId": "heart-rock", "startedAt": start.isoformat().replace("+00:00", "Z"),
                "endedAt": end.isoformat().replace("+00:00", "Z"), "fixes": fixes}
        status, saved = api(server.url, "PUT", f"/v1/me/hikes/parity-{secrets.token_hex(6)}", body, token=token)
        assert status == 201, saved
        live = app.d.execute_async_script("""
            const [fixes, start, end, done] = arguments;
            import('/trails/hike-stats.js').then((m) => done(m.hikeStatistics(
              fixes.map(([s, lat, lon, acc, ele]) => ({ t: start + s * 1000, lat, lon, acc, ele })), start, end,
              { heightCentimetres: 172, weightKilograms: 64, ageYears: 38 })));
        """, fixes, start.timestamp() * 1000, end.timestamp() * 1000)
        s = saved["summary"]
        for key in ("distanceMetres", "movingSeconds", "elapsedSeconds", "gainMetres", "calories"):
            assert math.isclose(live[key], s[key], rel_tol=1e-9, abs_tol=1e-6), (n, key, live[key], s[key])
        assert live["steps"] == s["steps"], (n, live["steps"], s["steps"])
        assert len(saved["fixes"]) == live["keptFixes"], "the server keeps the fixes the figures used"


def test_TRL_6_record_a_hike_from_a_position_feed_stop_rate_save_and_see_it_in_history(driver, server, artifacts):
    import json
    status, ana = api(server.url, "POST", "/v1/accounts", {"username": f"ana{secrets.token_hex(3)}", "password": PASSWORD})
    assert status == 201, ana
    _, page = api(server.url, "GET", "/v1/trails/heart-rock")
    head = page["summary"]["trailhead"]
    app = App(driver, server.url).open("/trails")
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", ana["token"], json.dumps(ana["user"]))
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})

    def at(north: float):
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {
            "latitude": head["latitude"] + north / 111_195, "longitude": head["longitude"], "accuracy": 5, "altitude": 1500 + north / 10})

    def fixes() -> int:
        return app.js("return JSON.parse(localStorage.getItem('waymark.trails.hike.v1') || 'null')?.fixes.length ?? 0")

    at(0)
    app.open("/trails/heart-rock")
    app.js("arguments[0].click()", app.wait(lambda: app.els("#trail-start-hike"), timeout=20, message="Start hike")[0])
    app.wait(lambda: app.js("return location.pathname") == "/trails/hikes", message="My hikes")
    app.wait(lambda: fixes() >= 1, message="the first fix")
    driver.execute_async_script("setTimeout(arguments[0], 1500)")    # Walking north briskly, 8 m between positions 1.5 s apart: the feed is the browser's own geolocation.
    for step in range(1, 4):
        at(step * 8)
        app.wait(lambda: fixes() > step, timeout=10, message=f"fix {step + 1}")
        driver.execute_async_script("setTimeout(arguments[0], 1500)")  # the time a walker takes between fixes
    # A reload in the middle keeps the recording and goes on.
    app.open("/trails/hikes")
    app.wait(lambda: app.el("#hike-current").get_attribute("data-state") == "recording", message="still recording after a reload")
    for step in range(4, 7):
        at(step * 8)
        app.wait(lambda: fixes() > step, timeout=10, message=f"fix {step + 1}")
        driver.execute_async_script("setTimeout(arguments[0], 1500)")
    # The card redraws every second: read it in one go.
    card = app.js("return document.getElementById('hike-current').textContent")
    assert "Recording: Heart Rock Trail" in card and re.search(r"\d\d:\d\d:\d\d", card), card
    app.wait(lambda: re.search(r"[1-9]", app.js("return document.getElementById('hike-distance').textContent")), message="distance counted")
    app.screenshot(artifacts / "trails-phone-hike-recording.png")

    app.js("arguments[0].click()", app.el("#hike-stop"))
    app.dialog_action("hike-stars", "4")
    app.wait(lambda: app.js("return location.pathname") == "/trails/heart-rock", message="back to the trail to comment")
    app.wait(lambda: app.els('.trail-star-pick[data-stars="4"][aria-pressed="true"]'), timeout=15, message="Leave Comment with 4 stars")

    app.open("/trails/hikes")
    app.wait(lambda: app.el("#hike-current").get_attribute("data-state") == "stopped", message="the summary")
    app.screenshot(artifacts / "trails-phone-hike-summary.png")
    app.js("arguments[0].click()", app.el("#hike-save"))
    app.wait(lambda: app.els("#hike-list .hike-item"), timeout=15, message="the hike in History")
    assert "Heart Rock Trail" in app.el("#hike-list .hike-item").text
    _, history = api(server.url, "GET", "/v1/me/hikes", token=ana["token"])
    assert history["total"] == 1
    hike = history["hikes"][0]
    assert 40 <= hike["distanceMetres"] <= 56, hike
    app.screenshot(artifacts / "trails-phone-hike-history.png")

    # TRL-11: what was read reads offline, saying how old it is.
    app.cdp("Network.enable", {})
    app.cdp("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    app.js("const a = document.createElement('a'); a.href = '/trails/hikes/all'; document.body.append(a); a.click(); a.remove()")
    app.wait(lambda: app.js("return location.pathname") == "/trails/hikes/all", message="All your hikes")
    app.js("const a = document.createElement('a'); a.href = '/trails/hikes'; document.body.append(a); a.click(); a.remove()")
    app.wait(lambda: app.els("#hike-history-age"), message="History read offline")
    assert "Heart Rock Trail" in app.el("#hike-list").text and "offline" in app.el("#hike-history-age").text
    app.cdp("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_TRL_10_tick_focal_points_on_a_scavenger_hunt_and_find_them_kept(driver, server, artifacts):
    import json
    status, ana = api(server.url, "POST", "/v1/accounts", {"username": f"ana{secrets.token_hex(3)}", "password": PASSWORD})
    assert status == 201, ana
    _, listed = api(server.url, "GET", "/v1/trails?limit=100&difficulty=easy")
    trail = None
    for t in listed["trails"]:
        _, page = api(server.url, "GET", f"/v1/trails/{t['id']}")
        focal = [p for p in page["points"] if p["focalPoint"]]
        if len(focal) >= 2:
            trail = page
            break
    assert trail, "a demo trail with a hunt"
    tid = trail["summary"]["id"]
    app = App(driver, server.url).open("/trails")
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", ana["token"], json.dumps(ana["user"]))
    app.open(f"/trails/{tid}")
    app.js("arguments[0].click()", app.wait(lambda: app.els("#trail-hunt-link"), timeout=20, message="the Scavenger hunt button")[0])
    app.wait(lambda: app.els("#hunt-list input[type=checkbox]"), message="the focal points")
    assert len(app.els("#hunt-list li")) == len(focal) and app.els("#hunt-list img"), "each with its picture"
    app.wait(lambda: app.el("#hunt-progress").text.startswith("0 of"), message="nothing found yet")
    app.el(f'#hunt-list input[data-point="{focal[0]["id"]}"]').click()
    app.wait(lambda: api(server.url, "GET", f"/v1/me/scavenger-hunts/{tid}", token=ana["token"])[1]["found"] == 1, message="the find kept")
    app.screenshot(artifacts / "trails-phone-scavenger-hunt.png")
    app.open(f"/trails/{tid}/hunt")
    app.wait(lambda: app.el(f'#hunt-list input[data-point="{focal[0]["id"]}"]').is_selected(), message="still ticked after a reload")
    assert app.el("#hunt-progress").text.startswith("1 of")
