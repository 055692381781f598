"""The map provider's budget (PRK-20): with a daily limit set, map images come through the
server, which counts them; past the limit the app keeps working on its plain map (lots and
pins drawn, no images) and says so, asks for no more images after a reload; directions go
through the server to be counted; and operators read the day's counts in Analytics. The tile server is a local stand-in answering with one PNG."""
from __future__ import annotations

import http.server
import pathlib
import secrets
import shutil
import subprocess
import tempfile
import threading

import pytest

from conftest import WaymarkServer
from helpers import App, Accounts, api, use_session

LIMIT = 6
# A 1×1 PNG: the server passes the bytes on without reading them.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


class TileServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        self.paths: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                outer.paths.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(PNG)))
                self.end_headers()
                self.wfile.write(PNG)

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)


@pytest.fixture()
def budget_server():
    tiles = TileServer()
    threading.Thread(target=tiles.serve_forever, daemon=True).start()
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-budget-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4", "WAYMARK_MAP_TILE_DAILY_LIMIT": str(LIMIT),
                                    "WAYMARK_TILE_URL": f"http://127.0.0.1:{tiles.server_address[1]}/osm/{{z}}/{{x}}/{{y}}.png"}).start()
    s.tiles = tiles
    yield s
    s.stop()
    tiles.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)


def tile_requests(app: App) -> list[str]:
    return app.js("return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/tiles/'))")


def test_prk20_past_the_daily_limit_the_map_goes_plain_says_so_and_operators_see_the_count(driver, budget_server, artifacts):
    server = budget_server
    status, config = api(server.url, "GET", "/v1/config")
    assert status == 200 and config["tileURLTemplate"] == "/tiles/default/{z}/{x}/{y}" and config["mapImagesPaused"] is False
    app = App(driver, server.url).open()

    # The map asks for more images than the day allows: the first six are fetched, the rest refused.
    app.wait(lambda: len(tile_requests(app)) > LIMIT, timeout=20, message="more map images asked for than the limit")
    app.wait(lambda: len(server.tiles.paths) == LIMIT, message="the tile server asked six times")
    assert all(p.startswith("/osm/") and p.endswith(".png") for p in server.tiles.paths), server.tiles.paths
    # The map keeps working without them: the lots' pins are drawn.
    app.wait(lambda: app.js("return window.waymark.pins().length") > 0, message="the lots' pins")
    status, config = api(server.url, "GET", "/v1/config")
    assert config["mapImagesPaused"] is True

    # Opened again, the app asks for no image at all and says why.
    app.open()
    app.wait(lambda: app.el("#attribution").text == "Map images are paused until tomorrow", message="the plain map's note")
    app.wait(lambda: app.js("return window.waymark.pins().length") > 0, message="the lots' pins on the plain map")
    assert tile_requests(app) == []
    assert len(server.tiles.paths) == LIMIT
    app.screenshot(artifacts / "map-budget-plain-phone.png")

    # Directions go through the server, which counts them and sends the browser on to the maps app.
    lot = app.js("return window.waymark.pins().find((p) => p.lotId)")
    app.js("window.waymark.openLot(arguments[0])", lot["lotId"])
    link = app.wait(lambda: app.els('[data-testid="lot-directions"]'), message="the lot card's directions")[0].get_attribute("href")
    assert link.startswith(f"{server.url}/go/directions?lat=") and link.endswith("&app=google"), link
    assert app.js("return fetch(arguments[0], {redirect: 'manual'}).then((r) => r.type)", link) == "opaqueredirect"

    # An operator of the whole Waymark reads the day's counts against the limit.
    email = f"ops{secrets.token_hex(3)}@example.com"
    status, operator = api(server.url, "POST", "/v1/accounts", {"username": f"ops{secrets.token_hex(3)}", "password": "Parking#2026", "email": email})
    assert status == 201, operator
    out = subprocess.run([str(server.binary), "operator", "grant", email, "--database", str(server.database)],
                         cwd=server.workdir, capture_output=True, text=True, env=server.env)
    assert out.returncode == 0, out.stderr
    use_session(app, operator)
    app.open()
    acc = Accounts(app)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    app.wait(lambda: app.js("const b = document.querySelector(`#accounts button[data-action='analytics']`); return !!b && b.offsetParent !== null"),
             message="Analytics in the operator's menu")
    acc.menu("analytics")
    acc.wait_view("analytics")
    rows = app.wait(lambda: app.js("""
        const t = document.querySelector('[data-testid="an-map-usage"]');
        return t ? [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent.trim())) : null;"""),
                    message="the map usage table")
    assert len(rows) == 14 and rows[0][1:] == [f"{LIMIT} of {LIMIT}", "1"], rows[:2]
    assert all(r[1:] == [f"0 of {LIMIT}", "0"] for r in rows[1:]), rows
    assert not any("-" in r[0] for r in rows), "days in words, not YYYY-MM-DD"
    section = app.el('[data-testid="an-map"]').text
    assert f"After {LIMIT} images in a day the map shows without them" in section
    app.js("document.querySelector('[data-testid=an-map]').scrollIntoView({block: 'start'})")
    app.screenshot(artifacts / "map-budget-analytics-phone.png")
    assert not [e for e in app.console_errors() if "/tiles/" not in e], "nothing but the refused images"
