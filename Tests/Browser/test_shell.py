"""The app shell: installable (manifest, service worker), strict CSP with no inline code, light
and dark themes, desktop layout, and raster tiles drawn when a tile server answers (PRK-18)."""
from __future__ import annotations

import json
import pathlib
import re
import shutil
import struct
import tempfile
import urllib.request
import zlib

import pytest

from conftest import REPO, WaymarkServer, make_driver
from helpers import App

WEB = REPO / "Web"


@pytest.fixture()
def app(driver, server) -> App:
    return App(driver, server.url)


def test_every_module_is_preloaded_and_cached_for_offline_use():
    """The shell lists (index.html modulepreload and stylesheets, sw.js precache) match the files
    on disk, as scripts/web-modules writes them: a module or stylesheet missing from either fails."""
    modules = sorted("/" + p.relative_to(WEB).as_posix() for p in WEB.rglob("*.js") if p.name != "sw.js")
    # A stylesheet beside a page of its own (privacy.css next to privacy.html) belongs to that page only.
    styles = sorted("/" + p.relative_to(WEB).as_posix() for p in WEB.rglob("*.css") if not p.with_suffix(".html").exists())
    html = (WEB / "index.html").read_text()
    preloaded = sorted(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    assert preloaded == modules
    linked = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
    assert sorted(linked) == styles
    assert linked[0] == "/shell/shell.css", "the shell's stylesheet comes first; the areas' build on it"
    sw = (WEB / "sw.js").read_text()
    shell = re.search(r"const SHELL = \[(.*?)\];", sw, re.S).group(1)
    cached = re.findall(r"'(/[^']*)'", shell)
    assert set(modules) - {"/app.js"} <= set(cached) and "/app.js" in cached
    assert set(styles) <= set(cached)
    for path in cached:
        assert path == "/" or (WEB / path.lstrip("/")).exists(), path


def test_api_paths_are_named_only_by_the_areas_api_modules():
    """Each area has one API module (Web/<area>/api.js); no other file of the web app, the
    service worker and index.html included, names an API path."""
    allowed = {p for p in WEB.glob("*/api.js")} - {WEB / "shell" / "api.js"}
    assert {p.parent.name for p in allowed} >= {"parking", "accounts", "notifications"}
    found = []
    for p in sorted(WEB.rglob("*")):
        if p.suffix not in (".js", ".html", ".css", ".webmanifest") or p in allowed:
            continue
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if "/v1/" in line:
                found.append(f"{p.relative_to(WEB)}:{n}: {line.strip()}")
    assert found == [], "API paths outside the areas' API modules:\n" + "\n".join(found)


def test_no_inline_script_or_style_so_the_strict_csp_holds(server):
    """The server's CSP forbids inline code; the page must not need any."""
    with urllib.request.urlopen(server.url + "/") as r:
        csp = r.headers["Content-Security-Policy"]
        html = r.read().decode()
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert "<style" not in html and not re.search(r'\sstyle="', html), "inline style"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"


def test_installable_manifest_and_service_worker(app, server):
    """A manifest with icons and a service worker that controls the page make it installable."""
    with urllib.request.urlopen(server.url + "/manifest.webmanifest") as r:
        assert r.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.loads(r.read())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.url + icon["src"]) as r:
            assert r.status == 200
    app.open()
    app.wait(lambda: app.js("return !!navigator.serviceWorker.controller"), timeout=20, message="service worker in control")
    scope = app.d.execute_async_script(
        "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(r => done(r.scope));")
    assert scope == server.url + "/"
    # API reads are kept for offline use, the live stream never is.
    app.open()
    app.wait(lambda: app.state()["live"] == "live", message="live stream")
    cached = app.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('waymark-api-v1').then(c => c.keys()).then(k => done(k.map(r => new URL(r.url).pathname)));")
    assert any(p.endswith("/occupancy") for p in cached), cached
    assert not any(p.endswith("/live") for p in cached), cached
    assert app.console_errors() == []


def test_dark_theme_follows_the_system(server, artifacts):
    """Light and dark themes: the map and the controls follow prefers-color-scheme."""
    d = make_driver()
    try:
        app = App(d, server.url)
        app.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        app.open()
        assert app.palette()["dark"] == "true"
        ground = app.palette()["ground"]
        pixel = app.js("const c = document.querySelector('.map-canvas'); const g = c.getContext('2d');"
                       "return [...g.getImageData(2, c.height - 2, 1, 1).data].slice(0, 3);")
        assert "#%02x%02x%02x" % tuple(pixel) in (ground, ), (pixel, ground)
        app.screenshot(artifacts / "map-campus-dark.png")
        lot = server.lot("NPS")
        app.set_view(center={"lat": lot["center"]["latitude"], "lon": lot["center"]["longitude"]}, zoom=18.2)
        app.wait(lambda: app.spot_count() > 0, message="bars")
        app.screenshot(artifacts / "map-spot-zoom-dark.png")
        app.js("window.waymark.openLot(arguments[0])", lot["id"])
        app.wait(lambda: app.els(".histogram .bar"), message="histogram")
        app.screenshot(artifacts / "lot-card-dark.png")
    finally:
        d.quit()


def test_wide_screen_shows_the_card_beside_the_map(server, artifacts):
    """On a desktop the card is a side panel and zoom buttons appear for the mouse."""
    d = make_driver(width=1280, height=800, pixel_ratio=1, touch=False)
    try:
        app = App(d, server.url).open()
        pin = app.pin("A")
        app.d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": pin["screenX"], "y": pin["screenY"], "button": "left", "clickCount": 1})
        app.d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": pin["screenX"], "y": pin["screenY"], "button": "left", "clickCount": 1})
        app.wait(lambda: app.el("#lot-card").get_attribute("data-lot-id") == pin["lotId"], message="card")
        assert app.button("Zoom in").is_displayed(), "a mouse was used: zoom buttons appear"
        app.wait(lambda: app.js("const c = document.getElementById('lot-card');"
                                "return !c.classList.contains('entering') && c.getAnimations().length === 0"), message="card in place")
        rect = app.el("#lot-card").rect
        rail = app.el("#areas").rect
        assert rail["x"] == 0 and rail["height"] == 800, "the navigation is a rail at the left"
        assert rail["width"] <= rect["x"] < rail["width"] + 40 and rect["width"] < 500, (rect, rail)
        z = app.view()["zoom"]
        app.button("Zoom in").click()
        app.wait(lambda: abs(app.view()["zoom"] - (z + 1)) < 0.01, message="zoom in button")
        app.screenshot(artifacts / "desktop-card.png")
    finally:
        d.quit()


def _png(rgb: tuple[int, int, int]) -> bytes:
    raw = b"".join(b"\x00" + bytes(rgb) * 256 for _ in range(256))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def test_raster_tiles_are_drawn_when_the_tile_server_answers(artifacts):
    """Tiles come from the configured URL template (same-origin here, as the sandbox has no internet)."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-tiles-"))
    web = workdir / "Web"
    shutil.copytree(WEB, web)
    colour = (170, 211, 223)
    png = _png(colour)
    import math
    lat, lon = 33.8823, -117.8851
    for z in (15, 16, 17):
        n = 2 ** z
        x = int((lon + 180) / 360 * n)
        y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
        for dx in range(-4, 5):
            for dy in range(-5, 6):
                path = web / "tiles" / str(z) / str(x + dx) / f"{y + dy}.png"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(png)
    server = WaymarkServer(workdir, web=web, env={"WAYMARK_TILE_URL": "/tiles/{z}/{x}/{y}.png",
                                                  "WAYMARK_TILE_ATTRIBUTION": "Test tiles"}).start()
    d = make_driver()
    try:
        app = App(d, server.url).open()
        app.wait(lambda: app.js("return window.waymark.map.stats().tiles.loaded") > 4, message="tiles loaded")
        app.frame()
        pixel = app.js("const c = document.querySelector('.map-canvas'); const g = c.getContext('2d');"
                       "return [...g.getImageData(4, Math.round(c.height * 0.9), 1, 1).data].slice(0, 3);")
        assert tuple(pixel) == colour
        assert app.el("#attribution").text == "Test tiles"
        assert app.pins(), "overlays draw over the tiles"
    finally:
        d.quit()
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
