"""The parked car (seed Feature 4, PRK-11): save, locate, update, forget, only on the device."""
from __future__ import annotations

import json

import pytest

from helpers import App

PARKED = {"latitude": 33.8872, "longitude": -117.8887, "accuracy": 8}
MOVED = {"latitude": 33.8791, "longitude": -117.8817, "accuracy": 12}


@pytest.fixture()
def app(driver, server) -> App:
    return App(driver, server.url)


def allow_location(app: App, where: dict) -> None:
    app.cdp("Browser.grantPermissions", {"origin": app.base, "permissions": ["geolocation"]})
    app.cdp("Emulation.setGeolocationOverride", where)


def stored(app: App):
    return json.loads(app.js("return localStorage.getItem('waymark.car.v1')") or "null")


def near(view: dict, where: dict) -> bool:
    return abs(view["center"]["lat"] - where["latitude"]) < 1e-5 and abs(view["center"]["lon"] - where["longitude"]) < 1e-5


def test_prk11_save_locate_update_and_forget_the_parked_car(app, server, artifacts):
    """PRK-11: car button → confirm → saved here with a marker; then locate / update / forget."""
    app.open()
    allow_location(app, PARKED)
    car = app.button("Parked car")
    assert car.get_attribute("data-saved") == "false"
    car.click()
    app.dialog_action("car-save", "confirm")
    app.wait(lambda: app.js("return window.waymark.car()"), message="car saved")
    saved = app.js("return window.waymark.car()")
    assert saved["lat"] == pytest.approx(PARKED["latitude"]) and saved["lon"] == pytest.approx(PARKED["longitude"])
    assert stored(app)["lat"] == pytest.approx(PARKED["latitude"]), "kept in this device's storage"
    assert car.get_attribute("data-saved") == "true"
    app.wait(lambda: near(app.view(), PARKED), message="map centred on the car")
    # The marker is drawn where the car is, and tapping it opens the car menu.
    app.set_view(zoom=17)
    p = app.js("return window.waymark.map.project(arguments[0])", {"lat": PARKED["latitude"], "lon": PARKED["longitude"]})
    app.tap(p["x"], p["y"])
    app.dialog("car-menu")
    app.screenshot(artifacts / "car-menu.png")
    app.dialog_action("car-menu", "cancel")

    # Locate: pan away, then "Show on map" brings the car back to the middle.
    app.set_view(center={"lat": 33.8800, "lon": -117.8830})
    car.click()
    app.dialog_action("car-menu", "locate")
    app.wait(lambda: near(app.view(), PARKED), message="located")

    # Stored on the device: it survives a reload, with no server involved.
    app.open()
    assert app.js("return window.waymark.car()")["lat"] == pytest.approx(PARKED["latitude"])

    # Update asks first; cancelling keeps the old place.
    allow_location(app, MOVED)
    app.button("Parked car").click()
    app.dialog_action("car-menu", "update")
    app.dialog_action("car-update", "cancel")
    assert app.js("return window.waymark.car()")["lat"] == pytest.approx(PARKED["latitude"])
    app.button("Parked car").click()
    app.dialog_action("car-menu", "update")
    app.dialog_action("car-update", "confirm")
    app.wait(lambda: abs(app.js("return window.waymark.car()")["lat"] - MOVED["latitude"]) < 1e-9, message="updated")

    # Forget asks first too.
    app.button("Parked car").click()
    app.dialog_action("car-menu", "forget")
    app.dialog_action("car-forget", "cancel")
    assert app.js("return window.waymark.car()") is not None
    app.button("Parked car").click()
    app.dialog_action("car-menu", "forget")
    app.dialog_action("car-forget", "confirm")
    app.wait(lambda: app.js("return window.waymark.car()") is None, message="forgotten")
    assert stored(app) is None
    assert app.button("Parked car").get_attribute("data-saved") == "false"


def test_prk11_denied_location_is_explained_and_nothing_is_saved(app):
    """PRK-11, seed 1.2.2.1: without location access the app says how to allow it."""
    app.open()
    app.cdp("Browser.setPermission", {"origin": app.base, "permission": {"name": "geolocation"}, "setting": "denied"})
    app.button("Parked car").click()
    app.dialog_action("car-save", "confirm")
    app.dialog("location-denied")
    message = app.el("#dialog .dialog-message").text
    assert "Settings" in message and "allow" in message.lower()
    app.dialog_action("location-denied", "ok")
    assert app.js("return window.waymark.car()") is None
    assert stored(app) is None
