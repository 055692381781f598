"""The shell's navigation between areas and the URL of every screen: a tab bar on a phone and
a rail on a wide screen, only for areas that exist; /lots/<id>, /me and its sections and
/me/bookings/<id> survive a reload, open cold in a new tab, follow Back and Forward, and open
offline from the service worker's copy of the shell. Requirements: PRK-1 (a lot on the one map),
PRK-12 (a booking), PRK-15 (the inbox), ACC-1…ACC-10 (the person's space), PRK-19 and QLT-1
(offline)."""
from __future__ import annotations

import json
import secrets
import uuid
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import make_driver
from helpers import App, Accounts, api

PASSWORD = "Parking#2026"


@pytest.fixture()
def app(driver, server) -> App:
    return App(driver, server.url)


def path(app: App) -> str:
    return app.js("return location.pathname")


def card_lot(app: App):
    return app.js("const c = document.getElementById('lot-card'); return c.hidden ? null : c.dataset.lotId")


def overlaps(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def nav_links(app: App) -> list[tuple[str, str, str | None]]:
    return [(a.text, a.get_attribute("pathname"), a.get_attribute("aria-current")) for a in app.els("nav#areas a")]


def register(server) -> dict:
    status, session = api(server.url, "POST", "/v1/accounts",
                          {"username": f"rover{secrets.token_hex(3)}", "password": PASSWORD})
    assert status == 201, session
    return session


def sign_in(app: App, session: dict) -> None:
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", session["token"], json.dumps(session["user"]))


def a_booking(server, token: str) -> dict:
    """A paid booking of lot A tomorrow morning, straight through the API."""
    import urllib.request

    def post(p, body, key):
        request = urllib.request.Request(server.url + p, data=json.dumps(body).encode(), method="POST", headers={
            "Accept": "application/json", "Content-Type": "application/json", "Authorization": f"Bearer {token}",
            "Idempotency-Key": key})
        with urllib.request.urlopen(request, timeout=20) as r:
            return json.loads(r.read())
    post("/v1/wallet/top-ups", {"amountMinor": 5000, "currency": "USD"}, str(uuid.uuid4()))
    tz = ZoneInfo(server.site["timeZone"])
    start = (datetime.now(tz) + timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
    iso = lambda t: t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    return post("/v1/bookings", {"lotId": server.lot("A")["id"], "start": iso(start), "end": iso(start + timedelta(hours=2))},
                str(uuid.uuid4()))


def test_a_tab_bar_on_a_phone_lists_only_the_areas_that_exist_and_covers_nothing(app, server, artifacts):
    app.open()
    nav = app.el("nav#areas")
    assert nav.get_attribute("aria-label")
    assert nav_links(app) == [("Parking", "/", "page"), ("Rooms", "/rooms", None), ("Trails", "/trails", None), ("Plan", "/plan", None), ("You", "/me", None)]
    bar = nav.rect
    assert bar["x"] == 0 and bar["width"] == 390 and bar["y"] + bar["height"] == 844 and 48 <= bar["height"] <= 72, bar
    # The map's controls and the lot card stay clear of the tab bar.
    lot = server.lot("NPS")
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.el("#lot-card").is_displayed(), message="lot card")
    app.wait(lambda: path(app) == f"/lots/{lot['id']}", message="the lot's URL")
    # Measured where it comes to rest: mid-slide it still reaches past the tab bar's top edge.
    app.wait(lambda: app.js("const c = document.getElementById('lot-card');"
                            "return !c.classList.contains('entering') && c.getAnimations().length === 0"), message="card in place")
    controls = [e for e in app.els(".toolbar button, #site-chip, #lot-card, #legend, .zoom-controls button") if e.is_displayed()]
    assert len(controls) >= 6
    for e in controls:
        assert not overlaps(e.rect, bar), e.get_attribute("id") or e.get_attribute("aria-label")
    for tab in app.els("nav#areas a"):
        r = tab.rect
        hit = app.js("return document.elementFromPoint(arguments[0], arguments[1]).closest('a')?.id", r["x"] + r["width"] / 2, r["y"] + r["height"] / 2)
        assert hit == tab.get_attribute("id"), "every tab can be pressed with the card open"
    app.screenshot(artifacts / "nav-phone-card.png")

    # "You" opens the person's space above the tab bar, and marks itself current.
    app.el("#nav-me").click()
    Accounts(app).wait_view("signed-out")
    assert path(app) == "/me"
    assert nav_links(app) == [("Parking", "/", None), ("Rooms", "/rooms", None), ("Trails", "/trails", None), ("Plan", "/plan", None), ("You", "/me", "page")]
    panel = app.el("#accounts").rect
    assert panel["y"] + panel["height"] <= bar["y"] + 0.5, (panel, bar)
    app.screenshot(artifacts / "nav-phone-you.png")
    # Parking goes back to the map as it was left: the lot's card.
    app.el("#nav-parking").click()
    app.wait(lambda: path(app) == f"/lots/{lot['id']}" and not app.el("#accounts").is_displayed(), message="back on the lot")
    assert card_lot(app) == lot["id"]
    assert nav_links(app)[0][2] == "page"
    assert app.console_errors() == []


def test_a_rail_on_a_wide_screen_beside_the_card_and_the_panel(server, artifacts):
    d = make_driver(width=1280, height=800, pixel_ratio=1, touch=False)
    try:
        app = App(d, server.url).open()
        rail = app.el("nav#areas").rect
        assert rail["x"] == 0 and rail["y"] == 0 and rail["height"] == 800 and 64 <= rail["width"] <= 110, rail
        links = [a.rect for a in app.els("nav#areas a")]
        assert links[0]["y"] < 120 and links[-1]["y"] > 600, "Parking at the top of the rail, You at its foot"
        lot = server.lot("A")
        app.open(f"/lots/{lot['id']}")
        app.wait(lambda: card_lot(app) == lot["id"], message="card from the URL")
        app.el("#nav-me").click()
        Accounts(app).wait_view("signed-out")
        card, panel = app.el("#lot-card").rect, app.el("#accounts").rect
        for r in (card, panel):
            assert r["x"] >= rail["x"] + rail["width"], (r, rail)
        assert not overlaps(card, panel)
        for tool in app.els(".toolbar button"):
            assert not overlaps(tool.rect, panel) and not overlaps(tool.rect, card)
        app.screenshot(artifacts / "nav-desktop-card-you.png")
    finally:
        d.quit()


def test_a_lot_has_its_own_url_that_survives_reload_and_back_and_forward(app, server):
    a, g = server.lot("A"), server.lot("G")
    app.open()
    assert path(app) == "/" and card_lot(app) is None
    pin = app.pin("A")
    app.tap(pin["screenX"], pin["screenY"])
    app.wait(lambda: card_lot(app) == a["id"], message="card A")
    assert path(app) == f"/lots/{a['id']}"
    assert app.js("return document.activeElement.id") == "lot-card-title", "focus moves into the card"
    # Reload: the same lot, card open, map centred on it.
    app.d.refresh()
    app.wait_ready()
    app.wait(lambda: card_lot(app) == a["id"], message="card A after reload")
    # Another lot replaces the entry (lot to lot is not a step back); closing goes back to the map.
    app.js("window.waymark.openLot(arguments[0])", g["id"])
    app.wait(lambda: path(app) == f"/lots/{g['id']}", message="lot G's URL")
    app.el("#lot-card .close").click()
    app.wait(lambda: path(app) == "/" and card_lot(app) is None, message="map")
    app.d.forward()
    app.wait(lambda: card_lot(app) == g["id"], message="forward reopens G")
    app.d.back()
    app.wait(lambda: path(app) == "/" and card_lot(app) is None, message="back closes it")
    # An unknown lot is said so, and the URL becomes the map's.
    app.open("/lots/no-such-lot")
    app.wait(lambda: path(app) == "/", message="unknown lot")
    assert "not on this campus" in app.el("#toast").get_attribute("textContent")


def test_a_lot_url_opens_cold_in_a_new_tab(server):
    lot = server.lot("NPS")
    d = make_driver()
    try:
        app = App(d, server.url).open(f"/lots/{lot['id']}")
        app.wait(lambda: card_lot(app) == lot["id"], message="card from a cold open")
        assert app.js("return document.getElementById('lot-card-title').textContent") == lot["name"]
        # The map is at the lot: close enough for spots, and the lot in sight above the card.
        assert app.view()["zoom"] >= app.state()["spotMinZoom"] - 0.5
        card = app.el("#lot-card").rect
        app.wait(lambda: (lambda p: 0 < p["x"] < 390 and 60 < p["y"] < card["y"])(
            app.js("return window.waymark.map.project(arguments[0])", {"lat": lot["center"]["latitude"], "lon": lot["center"]["longitude"]})),
            message="the lot above the card")
        # Back from a cold open has nothing of ours under it: closing replaces the entry.
        app.el("#lot-card .close").click()
        app.wait(lambda: path(app) == "/", message="map")
        assert app.console_errors() == []
    finally:
        d.quit()


def test_the_persons_space_and_its_sections_have_urls(app, server, artifacts):
    session = register(server)
    booking = a_booking(server, session["token"])
    app.open()
    sign_in(app, session)
    acc = Accounts(app)
    # Cold opens of each section, as from a bookmark or a shared link.
    for url, view in [("/me", "account"), ("/me/inbox", "notifications"), ("/me/bookings", "bookings"),
                      ("/me/wallet", "wallet"), ("/me/account", "update")]:
        app.open(url)
        acc.wait_view(view)
        assert path(app) == url
        assert app.el("#nav-me").get_attribute("aria-current") == "page"
    # A booking's own URL brings it into view and focus.
    app.open(f"/me/bookings/{booking['id']}")
    acc.wait_view("bookings")
    focused = app.wait(lambda: app.js("return document.activeElement?.dataset.bookingId"), message="the booking focused")
    assert focused == booking["id"]
    assert "focused" in app.el(f'[data-booking-id="{booking["id"]}"]').get_attribute("class")
    app.screenshot(artifacts / "route-booking.png")

    # In-app steps push entries: home → wallet, Back in the panel, browser back and forward.
    app.open("/")
    app.el("#nav-me").click()
    acc.wait_view("account")
    assert path(app) == "/me"
    acc.menu("wallet")
    acc.wait_view("wallet")
    assert path(app) == "/me/wallet"
    app.d.back()
    acc.wait_view("account")
    assert path(app) == "/me"
    app.d.forward()
    acc.wait_view("wallet")
    app.el("#accounts-back").click()
    acc.wait_view("account")
    app.wait(lambda: path(app) == "/me", message="panel Back")
    acc.menu("bookings")
    acc.wait_view("bookings")
    link = app.wait(lambda: app.el(f'[data-booking-id="{booking["id"]}"] a.booking-link'), message="the booking's link")
    link.click()
    app.wait(lambda: path(app) == f"/me/bookings/{booking['id']}", message="the booking's URL")
    # Close goes back to the map the space opened over, through the entries it pushed.
    app.el("#accounts-close").click()
    app.wait(lambda: path(app) == "/" and not app.el("#accounts").is_displayed(), message="back on the map")
    assert app.el("#nav-parking").get_attribute("aria-current") == "page"
    # Signed out, a section that needs an account asks to sign in first.
    app.js("localStorage.removeItem('waymark.account.token'); localStorage.removeItem('waymark.account.me');")
    app.open("/me/wallet")
    acc.wait_view("signed-out")
    assert "Sign in to see your wallet" in app.el('[data-testid="notice"]').text
    assert app.console_errors() == []


def test_keyboard_reaches_the_navigation_and_escape_returns_focus(app, server):
    app.open()
    # The tabs are links in a landmark, reachable with Tab.
    app.el("#nav-me").send_keys(Keys.ENTER)
    acc = Accounts(app)
    acc.wait_view("signed-out")
    assert path(app) == "/me"
    assert app.js("return document.activeElement.id") == "accounts-title", "focus moves into the panel"
    app.el("#accounts-title").send_keys(Keys.ESCAPE)
    app.wait(lambda: not app.el("#accounts").is_displayed() and path(app) == "/", message="Escape closes")
    assert app.js("return document.activeElement.id") == "nav-me", "focus returns to what opened it"
    # The lot card: the off-screen list opens it, Escape closes it and focus goes back.
    lot = server.lot("A")
    item = app.el(f'#lot-list button[data-lot-id="{lot["id"]}"]')
    item.send_keys(Keys.ENTER)
    app.wait(lambda: card_lot(app) is not None, message="card")
    assert app.js("return document.activeElement.id") == "lot-card-title"
    app.el("#lot-card-title").send_keys(Keys.ESCAPE)
    app.wait(lambda: card_lot(app) is None and path(app) == "/", message="card closed")
    assert app.js("return document.activeElement") == item


def test_screens_open_offline_from_the_cached_shell(driver, own_server):
    lot = own_server.lot("G")
    app = App(driver, own_server.url).open()
    app.wait(lambda: app.js("return !!navigator.serviceWorker.controller"), timeout=20, message="service worker")
    app.wait(lambda: app.js("return localStorage.getItem('waymark.parking.snapshot.v1') !== null"), message="snapshot kept")
    own_server.stop()
    app.open(f"/lots/{lot['id']}")
    app.wait(lambda: card_lot(app) == lot["id"], message="the lot's card offline")
    assert app.state()["fromCache"] is True
    app.open("/me/inbox")
    Accounts(app).wait_view("notifications")
    assert path(app) == "/me/inbox"
