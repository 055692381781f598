"""The map's own tools (TRL-2): the Default / Satellite switch, hidden when the server has no
imagery configured and switching the tiles when it has, remembered by the browser; and the
person's position with its accuracy and altitude, from Chromium's geolocation override."""
from __future__ import annotations

import http.server
import pathlib
import shutil
import struct
import tempfile
import threading
import zlib

import pytest

from conftest import WaymarkServer
from helpers import App


def png(rgb: tuple[int, int, int], size: int = 256) -> bytes:
    """A plain square PNG, written by hand so the test needs no imaging library."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * size
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * size)) + chunk(b"IEND", b""))


class TileServer:
    """Street tiles in grey and aerial ones in green, counting what the browser asks for."""

    def __init__(self):
        self.requests: list[str] = []
        tiles = {"street": png((220, 220, 214)), "satellite": png((46, 90, 50))}
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.requests.append(self.path)
                body = tiles.get(self.path.strip("/").split("/")[0])
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def count(self, kind: str) -> int:
        return sum(1 for r in self.requests if r.startswith(f"/{kind}/"))

    def close(self):
        self.httpd.shutdown()


@pytest.fixture()
def tiles():
    t = TileServer()
    yield t
    t.close()


@pytest.fixture()
def imagery_server(tiles):
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-imagery-"))
    s = WaymarkServer(workdir, env={
        "WAYMARK_TILE_URL": f"{tiles.url}/street/{{z}}/{{x}}/{{y}}.png", "WAYMARK_TILE_ATTRIBUTION": "Test streets",
        "WAYMARK_SATELLITE_TILE_URL": f"{tiles.url}/satellite/{{z}}/{{x}}/{{y}}.png", "WAYMARK_SATELLITE_TILE_ATTRIBUTION": "Test imagery",
    }).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def test_TRL_2_the_satellite_switch_is_hidden_without_imagery(driver, server):
    app = App(driver, server.url).open("/trails")
    app.wait(lambda: app.js("return window.waymark.trails()") is not None, timeout=20, message="Trails started")
    assert not app.el("#btn-base-map").is_displayed(), "no imagery configured: no switch"
    assert app.js("return window.waymark.baseMap()") == "default"


def test_TRL_2_the_satellite_switch_changes_the_tiles_and_is_remembered(driver, imagery_server, tiles, artifacts):
    app = App(driver, imagery_server.url).open("/trails")
    switch = app.wait(lambda: [b for b in app.els("#btn-base-map") if b.is_displayed()], timeout=20, message="the switch")[0]
    app.wait(lambda: tiles.count("street") > 0, timeout=20, message="street tiles drawn")
    assert tiles.count("satellite") == 0 and app.el("#attribution").text == "Test streets"
    switch.click()
    app.wait(lambda: tiles.count("satellite") > 0, timeout=20, message="aerial tiles asked for")
    assert app.el("#btn-base-map").get_attribute("aria-pressed") == "true"
    assert app.el("#attribution").text == "Test imagery", "the imagery's credit replaces the map's"
    app.screenshot(artifacts / "map-phone-satellite.png")
    before = tiles.count("street")
    app.open("/trails")
    app.wait(lambda: app.js("return window.waymark.baseMap()") == "satellite", timeout=20, message="the choice remembered")
    app.el("#btn-base-map").click()
    app.wait(lambda: tiles.count("street") > before, timeout=20, message="street tiles again")
    assert app.el("#attribution").text == "Test streets"


def test_TRL_2_my_position_and_altitude_on_the_map(driver, server, artifacts):
    app = App(driver, server.url).open("/trails")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})
    # Near the Heart Rock trailhead in the San Bernardino mountains, 1,500 m up.
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": 34.2536, "longitude": -117.1612, "accuracy": 12, "altitude": 1500, "altitudeAccuracy": 8})
    app.el("#btn-locate").click()
    app.wait(lambda: app.js("return window.waymark.myLocation()") is not None, timeout=20, message="the position shown")
    where = app.js("return window.waymark.myLocation()")
    assert abs(where["lat"] - 34.2536) < 1e-6 and where["altitude"] == 1500
    readout = app.wait(lambda: app.el("#my-location").text if "altitude" in app.el("#my-location").text else None, message="the readout")
    # A US English browser reads feet: 1,500 m is 4,921 ft; 12 m is 39 ft.
    assert "4,921 ft" in readout and "±39 ft" in readout, readout
    assert app.el("#btn-locate").get_attribute("aria-pressed") == "true"
    app.wait(lambda: abs(app.js("return window.waymark.map.getView()")["center"]["lat"] - 34.2536) < 0.01, message="the map went to the position")
    app.screenshot(artifacts / "map-phone-my-location.png")
    app.el("#btn-locate").click()
    app.wait(lambda: app.js("return window.waymark.myLocation()") is None, message="a second tap stops it")
    assert not app.el("#my-location").is_displayed()
