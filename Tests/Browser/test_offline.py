"""Offline (PRK-19, seed 11.2): the app opens without the server and shows its last snapshot
with the snapshot's age; when the server is back it goes live again."""
from __future__ import annotations

import time

from helpers import App


def test_prk19_offline_open_shows_cached_snapshot_with_its_age(driver, own_server, artifacts):
    app = App(driver, own_server.url).open()
    # The service worker has installed, cached the shell and taken control of the page.
    app.wait(lambda: app.js("return !!navigator.serviceWorker.controller"), timeout=20, message="service worker")
    app.wait(lambda: app.js("return localStorage.getItem('waymark.parking.snapshot.v1') !== null"), message="snapshot kept")
    online_pins = {p["lotId"]: (p["level"], p["colour"]) for p in app.pins()}
    assert app.el("#status").get_attribute("hidden") is not None
    assert app.state()["fromCache"] is False

    own_server.stop()
    app.d.refresh()
    app.wait_ready()
    state = app.state()
    assert state["fromCache"] is True
    banner = app.wait(lambda: app.el("#status").is_displayed() and app.el("#status"), message="offline banner")
    assert banner.get_attribute("data-state") == "offline"
    assert "as of" in banner.text and ("ago" in banner.text or "just now" in banner.text), banner.text
    assert app.el("#site-chip").get_attribute("data-live") == "offline"
    offline_pins = {p["lotId"]: (p["level"], p["colour"]) for p in app.pins()}
    assert offline_pins == online_pins, "the cached snapshot is what the map shows"
    app.screenshot(artifacts / "map-offline.png")

    # The refresh button says it cannot reach the server and keeps the cached picture.
    app.button("Refresh").click()
    app.wait(lambda: "reach" in app.el("#toast").get_attribute("textContent"), message="cannot reach toast")
    assert app.state()["fromCache"] is True

    # Back online: the live stream reconnects by itself and the banner goes away.
    own_server.start()
    app.wait(lambda: app.state()["fromCache"] is False and app.state()["live"] == "live", timeout=30, message="live again")
    app.wait(lambda: app.el("#status").get_attribute("hidden") is not None, message="banner hidden")
    assert app.el("#site-chip").get_attribute("data-live") == "live"
