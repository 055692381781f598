"""Notifications in the web app (PRK-15; UniPark sprint 3): watch a lot from its card, sensors
fill it through a gateway, the bell's badge counts the news as it arrives live, and the inbox
marks read, marks all read and deletes. A real server with the demo site, its own database."""
from __future__ import annotations

import pathlib
import shutil
import tempfile
import time

import pytest

from conftest import WaymarkServer
from helpers import App, Accounts, api, new_account, use_session

PASSWORD = "Parking#2026"


@pytest.fixture(scope="module")
def notify_server():
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-notifications-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4"}).start()
    s.key = s.gateway_key("notification-tests")
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture()
def app(driver, notify_server) -> App:
    return App(driver, notify_server.url).open()


def register(server) -> dict:
    return new_account(server.url, "watcher", PASSWORD)


def sign_in_browser(app: App, session: dict) -> None:
    use_session(app, session)
    app.open()


def set_taken(server, lot: dict, fraction: float) -> None:
    """Every spot with a sensor reports: the first `fraction` of them occupied, the rest free."""
    spots = server.spots(lot["id"])
    states = server.states(lot["id"])
    usable = [s for s in spots if states[s["ordinal"]] != "c"]
    target = int(round(fraction * len(usable)))
    server.post_events(server.key, [(s["sensorId"], i < target) for i, s in enumerate(usable)])


def smallest_surface_lot(server) -> dict:
    return min((l for l in server.lots() if l["kind"] == "surface"), key=lambda l: l["capacity"])


def open_settled(app: App, server, lot: dict) -> None:
    """Opens the lot card and waits until it shows the lot's counts as the API has them: the
    card redraws when a live update lands, and a tap aimed before that redraw lands elsewhere."""
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    o = server.occupancy()[lot["id"]]
    taken = str(o["occupied"] + o["held"] + o["booked"])
    app.wait(lambda: app.js("return document.getElementById('lot-card')?.dataset.taken") == taken, message=f"the card showing {taken} taken")
    time.sleep(0.3)  # the sheet's slide-in (0.22 s) is over


def unread(app: App) -> str:
    return app.el("#btn-notifications").get_attribute("data-unread")


def overlaps(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_prk15_bell_sits_in_the_toolbar_without_covering_other_controls(app, notify_server):
    """PRK-15: at 390 px wide the bell is a toolbar button of its own; nothing covers it and it covers nothing."""
    assert app.js("return innerWidth") == 390
    bell = app.el("#btn-notifications")
    assert bell.get_attribute("aria-label") == "Notifications"
    assert unread(app) == "0"
    assert not app.el("#btn-notifications .badge").is_displayed()
    # Close to a structure, the level picker shows under the toolbar.
    lot = notify_server.lot("NPS")
    app.set_view(center={"lat": lot["center"]["latitude"], "lon": lot["center"]["longitude"]}, zoom=17.6)
    app.wait(lambda: app.el("#level-picker").is_displayed(), message="level picker")
    others = [e for e in app.els(".toolbar button, #level-picker button, .zoom-controls button, #site-chip")
              if e.is_displayed() and e.get_attribute("id") != "btn-notifications"]
    assert len(others) >= 5
    for other in others:
        assert not overlaps(bell.rect, other.rect), other.get_attribute("id") or other.get_attribute("aria-label")
    centre = app.js("const r = arguments[0].getBoundingClientRect();"
                    "return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).closest('button')?.id", bell)
    assert centre == "btn-notifications"


def test_prk15_guests_see_no_watch_switch(app, notify_server):
    """PRK-15: watching a lot needs an account; a guest's lot card has no switch."""
    lot = smallest_surface_lot(notify_server)
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.js("return document.getElementById('lot-card-title')?.textContent") == lot["name"], message="lot card")
    assert app.js("return document.querySelector('#lot-card [data-testid=watch-toggle]')") is None


def test_prk15_watch_a_lot_it_fills_the_bell_counts_live_and_the_inbox_marks_read(app, notify_server, artifacts):
    """PRK-15: "Watch this lot" on the card; gateway reports fill the lot; the badge shows 1 then 2
    without reloading, with a toast; the inbox opens, opening one marks it read, mark all read,
    delete."""
    session = register(notify_server)
    token = session["token"]
    lot = smallest_surface_lot(notify_server)
    set_taken(notify_server, lot, 0.5)
    sign_in_browser(app, session)

    open_settled(app, notify_server, lot)
    toggle = app.wait(lambda: app.js("const b = document.querySelector('#lot-card [data-testid=watch-toggle]');"
                                     "return b && !b.disabled ? b : null"), message="watch switch")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert toggle.get_attribute("textContent") == "Watch this lot"
    toggle.click()
    app.wait(lambda: app.el("#lot-card [data-testid=watch-toggle]").get_attribute("aria-pressed") == "true", message="watching")
    status, watches = api(notify_server.url, "GET", "/v1/me/watches", token=token)
    assert status == 200 and [w["lotId"] for w in watches["watches"]] == [lot["id"]]
    assert unread(app) == "0"

    set_taken(notify_server, lot, 0.9)
    app.wait(lambda: unread(app) == "1", timeout=15, message="the badge counting the almost-full notification live")
    assert app.el("#btn-notifications .badge").is_displayed()
    assert app.el("#btn-notifications .badge").text == "1"
    assert app.el("#btn-notifications").get_attribute("aria-label") == "Notifications, 1 unread"
    app.wait(lambda: f"{lot['name']} is almost full" in app.el("#toast").text, message="toast")
    set_taken(notify_server, lot, 1.0)
    app.wait(lambda: unread(app) == "2", timeout=15, message="the full notification")
    app.screenshot(artifacts / "notifications-badge.png")

    # The lot card, a tall sheet on a phone, goes first: the bell is under it.
    app.el("#lot-card .close").click()
    app.wait(lambda: not app.el("#lot-card").is_displayed(), message="card closed")
    app.el("#btn-notifications").click()
    accounts = Accounts(app)
    accounts.wait_view("notifications")
    items = app.wait(lambda: (lambda xs: xs if len(xs) == 2 else None)(app.els("[data-testid=inbox] .inbox-item")), message="inbox")
    assert [i.get_attribute("data-kind") for i in items] == ["lot-full", "lot-almost-full"]
    assert all("unread" in i.get_attribute("class") for i in items)
    items[0].find_element("css selector", ".inbox-open").click()
    app.wait(lambda: unread(app) == "1", message="opening marks read")
    assert app.el("[data-testid=inbox] .inbox-item .inbox-body").is_displayed()
    status, inbox = api(notify_server.url, "GET", "/v1/me/notifications", token=token)
    assert inbox["unreadCount"] == 1 and inbox["notifications"][0]["read"] is True
    app.screenshot(artifacts / "notifications-inbox.png")

    app.el("[data-testid=mark-all-read]").click()
    app.wait(lambda: unread(app) == "0", message="all read")
    assert not app.el("#btn-notifications .badge").is_displayed()
    assert api(notify_server.url, "GET", "/v1/me/notifications", token=token)[1]["unreadCount"] == 0

    app.wait(lambda: app.els("[data-testid=inbox] .inbox-item .inbox-delete"), message="delete buttons")
    app.els("[data-testid=inbox] .inbox-item .inbox-delete")[0].click()
    app.wait(lambda: len(app.els("[data-testid=inbox] .inbox-item")) == 1, message="deleted")
    status, inbox = api(notify_server.url, "GET", "/v1/me/notifications", token=token)
    assert [n["kind"] for n in inbox["notifications"]] == ["lot-almost-full"]
    assert app.console_errors() == []
