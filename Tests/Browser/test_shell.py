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
from helpers import App, new_account, use_session

WEB = REPO / "Web"


@pytest.fixture()
def app(driver, server) -> App:
    return App(driver, server.url)


# A static import or re-export (`import … from '…'`, `import '…'`, `export … from '…'`); not `import('…')`.
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\s+(?:[\w$*{},\s]+?\s+from\s+)?['"](\.[^'"]+)['"]""", re.M)


def first_screen_modules() -> set[str]:
    """What opening the app at / needs: app.js, Parking's and You's area modules (the areas that
    start when the app opens; the bell and the person's tab are on the first screen) and every
    module they import statically, file to file."""
    todo, seen = ["/app.js", "/parking/area.js", "/accounts/area.js"], set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = WEB / module.lstrip("/")
        for spec in STATIC_IMPORT.findall(path.read_text()):
            todo.append("/" + (path.parent / spec).resolve().relative_to(WEB.resolve()).as_posix())
    return seen


def test_prk18_the_first_screen_is_preloaded_and_every_module_cached_for_offline_use():
    """index.html preloads exactly the first screen's modules (the shell, Parking and You with
    what they import statically; the other areas load when first shown) and links every
    stylesheet; sw.js precaches every module and stylesheet, as scripts/web-modules writes them.
    A module missing from either list, or another area's module preloaded, fails."""
    modules = sorted("/" + p.relative_to(WEB).as_posix() for p in WEB.rglob("*.js") if p.name != "sw.js")
    # A stylesheet beside a page of its own (privacy.css next to privacy.html) belongs to that page only.
    styles = sorted("/" + p.relative_to(WEB).as_posix() for p in WEB.rglob("*.css") if not p.with_suffix(".html").exists())
    html = (WEB / "index.html").read_text()
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert set(preloaded) == first_screen_modules() and len(preloaded) == len(set(preloaded))
    assert {"/app.js", "/parking/area.js", "/parking/index.js", "/accounts/area.js"} <= set(preloaded)
    for other in ("rooms", "trails", "planner"):
        assert not {f"/{other}/area.js", f"/{other}/index.js"} & set(preloaded), f"{other} loads when first shown"
    assert len(preloaded) < len(modules) * 0.6, "most modules wait for their screen"
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


def test_prk18_an_area_starts_the_first_time_it_is_shown(app):
    """PRK-18: the map opens with Parking and You only (You's screens wait to be opened); Rooms
    starts when its tab is first followed and hides again on the way back to the map; opened on
    its own path, an area has started by the time the splash goes."""
    scripts = ("return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
               ".filter((p) => p.endsWith('.js'))")
    app.open()
    first = set(app.js(scripts))
    assert {"/app.js", "/parking/area.js", "/accounts/area.js"} <= first
    waiting = {"/rooms/area.js", "/trails/area.js", "/planner/area.js", "/accounts/home.js", "/accounts/wallet.js"}
    assert not first & waiting, sorted(first & waiting)
    assert app.js("return window.waymark.rooms()") is None and app.js("return window.waymark.trails()") is None

    app.js("window.waymark.openAccount()")
    app.wait(lambda: app.els('#accounts form[data-form="sign-in"]'), message="the sign-in screen")
    assert "/accounts/home.js" in app.js(scripts)
    app.el("#accounts-close").click()

    app.el("#nav-rooms").click()
    app.wait(lambda: app.js("return window.waymark.rooms()") is not None, message="Rooms started")
    app.wait(lambda: app.el("#rooms").is_displayed(), message="the Rooms sheet")
    assert app.el("#nav-rooms").get_attribute("aria-current") == "page"
    app.el("#nav-parking").click()
    app.wait(lambda: app.js("return location.pathname") == "/" and not app.el("#rooms").is_displayed(), message="back on the map")
    assert app.js("return window.waymark.trails()") is None, "signed out and no hike: Trails has not started"

    app.open("/trails")
    assert app.js("return window.waymark.trails()") is not None
    assert app.el("#trails").is_displayed()
    assert app.console_errors() == []


def test_prk18_trl8_trails_starts_on_the_map_for_a_signed_in_person(app, server):
    """PRK-18: Trails has work while another area is shown for a signed-in person (unread
    messages on its tab, location shared with friends), so it starts once the map is usable
    without its tab being followed."""
    app.open()
    use_session(app, new_account(server.url, "shell", "Shell#2026pass"))
    app.open()
    app.wait(lambda: app.js("return window.waymark.trails()") is not None, timeout=15, message="Trails started")
    assert app.js("return location.pathname") == "/" and not app.el("#trails").is_displayed()
    assert app.js("return window.waymark.rooms()") is None


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
