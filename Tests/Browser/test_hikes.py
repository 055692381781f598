"""Hikes in the browser (TRL-6): the Current Hike card's live figures come from the web app's
port of the core's rules (Web/trails/hike-stats.js); here both run on the same fixes — random
walks with pauses, vague fixes and impossible jumps — and must agree: the server saves what the
person saw."""
from __future__ import annotations

import math
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
