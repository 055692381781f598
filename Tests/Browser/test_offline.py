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


def test_prk19_qlt1_a_persons_bookings_wallet_schedule_permits_and_inbox_read_offline_with_their_age(driver, own_server, artifacts):
    """What a person keeps in Waymark reads offline from the last copy, saying how old it is;
    a change of a booking's time, a schedule edit and a watched lot made offline wait and are
    sent once the server is back; signing out drops the copies (ACC-3)."""
    from datetime import datetime, timedelta, timezone
    from zoneinfo import ZoneInfo

    from helpers import Accounts, api, demo_permits, new_account, use_session

    session = new_account(own_server.url, "offline", "Parking#2026")
    token = session["token"]
    assert api(own_server.url, "POST", "/v1/wallet/top-ups", {"amountMinor": 2000, "currency": "USD"}, token=token)[0] == 201
    lot = own_server.lot("A")
    tz = ZoneInfo(own_server.site["timeZone"])
    start = (datetime.now(tz) + timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
    iso = lambda t: t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    status, booking = api(own_server.url, "POST", "/v1/bookings", {"lotId": lot["id"], "start": iso(start), "end": iso(start + timedelta(hours=2))},
                          token=token)
    assert status == 201, booking
    assert api(own_server.url, "PUT", "/v1/me/permits", demo_permits(own_server.url, ["green"]), token=token)[0] == 200
    status, block = api(own_server.url, "POST", "/v1/me/schedule/blocks", {"weekday": 3, "startSlot": 18, "endSlot": 24}, token=token)
    assert status == 201, block

    app = App(driver, own_server.url).open()
    use_session(app, session)
    app.open()
    acc = Accounts(app)

    def visit(view: str, ready) -> None:
        app.js("window.waymark.openAccount()")
        acc.wait_view("account")
        acc.menu(view)
        acc.wait_view(view)
        app.wait(ready, message=f"{view} read")

    card = f'#accounts [data-booking-id="{booking["id"]}"]'
    # Online once: each screen keeps its copy.
    visit("bookings", lambda: app.els(card))
    app.el("#accounts-close").click()
    visit("wallet", lambda: app.el('[data-testid="wallet-balance"]').text == "$8.00")
    app.el("#accounts-close").click()
    visit("permits", lambda: app.el('.permit-set input[value="green"]').is_selected())
    app.el("#accounts-close").click()
    visit("schedule", lambda: app.js("return document.querySelector('[data-loaded=true]') !== null"))
    app.el("#accounts-close").click()
    app.el("#btn-notifications").click()
    acc.wait_view("notifications")
    app.wait(lambda: "Nothing yet" in app.el("#accounts").text, message="the empty inbox")
    app.el("#accounts-close").click()
    assert app.js("return Object.keys(localStorage).filter(k => k.startsWith('waymark.saved.account:')).length") >= 5

    own_server.stop()
    offline = lambda: "Offline · saved" in app.el("#accounts").text  # noqa: E731
    visit("bookings", lambda: app.els(card) and offline())
    assert "10:00 AM – 12:00 PM" in app.el(card).text
    app.screenshot(artifacts / "bookings-read-offline.png")
    # A new time, offline: it waits, and goes once the server is back.
    app.el(f'{card} [data-action="change"]').click()
    acc.wait_view("change-booking")
    app.js("const i = document.querySelector('form[data-form=\"change-booking\"] [name=\"until\"]');"
           "i.value = '13:00'; i.dispatchEvent(new Event('change'));")
    acc.submit("change-booking")
    acc.wait_view("bookings")
    app.wait(lambda: "New time for A" in app.el('[data-testid="bookings-waiting"]').text, message="the time change waiting")
    app.el("#accounts-close").click()
    visit("wallet", lambda: app.el('[data-testid="wallet-balance"]').text == "$8.00" and offline())
    app.screenshot(artifacts / "wallet-read-offline.png")
    app.el("#accounts-close").click()
    visit("permits", lambda: offline() and app.el('.permit-set input[value="green"]').is_selected())
    app.el("#accounts-close").click()
    visit("schedule", lambda: offline())
    app.el("#accounts-close").click()
    app.el("#btn-notifications").click()
    acc.wait_view("notifications")
    app.wait(offline, message="the inbox read offline")
    app.el("#accounts-close").click()

    own_server.start()
    def changed():
        _, b = api(own_server.url, "GET", f"/v1/bookings/{booking['id']}", token=token)
        return b.get("modifications") == 1 and b
    moved = app.wait(changed, timeout=45, message="the time change sent")
    end = datetime.fromisoformat(moved["end"].replace("Z", "+00:00")).astimezone(tz)
    assert (end.hour, end.minute) == (13, 0)

    # Signing out drops every copy of the account's data.
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    acc.menu("logout")
    acc.wait_view("signed-out")
    saved = lambda: app.js("return Object.keys(localStorage).filter(k => k.startsWith('waymark.saved.account:'))")  # noqa: E731
    app.wait(lambda: saved() == [], message=f"the saved copies dropped ({saved()})")


def test_prk19_prk16_a_schedule_block_added_offline_gets_its_lot_and_is_sent_when_back(driver, own_server, artifacts):
    """A block added to the weekly schedule offline shows at once, marked as waiting; its lot is
    chosen from the lots on the map (the advice needs the server); it is still there when the
    screen opens again, and is sent as one block with its lot once the server is back."""
    from helpers import Accounts, api, new_account, use_session

    session = new_account(own_server.url, "offsched", "Parking#2026")
    lot = own_server.lot("A")
    app = App(driver, own_server.url).open()
    use_session(app, session)
    app.open()
    acc = Accounts(app)

    def open_schedule() -> None:
        app.js("window.waymark.openAccount()")
        acc.wait_view("account")
        acc.menu("schedule")
        acc.wait_view("schedule")
        app.wait(lambda: app.js("return document.querySelector('.sched')?.dataset.loaded") == "true", message="schedule read")

    waiting = lambda: app.js("return [...document.querySelectorAll('.sched-block.waiting')]"  # noqa: E731
                             ".map(b => ({...b.dataset, said: b.getAttribute('aria-label')}))")
    open_schedule()
    app.el("#accounts-close").click()

    own_server.stop()
    open_schedule()
    app.wait(lambda: "Offline · saved" in app.el("#accounts").text, message="the schedule read offline")
    # The keyboard way to add a block: Wednesday 9:00–11:00.
    app.el(".sched-add summary").click()
    app.js("const [d, f, t] = document.querySelectorAll('.sched-add select'); d.value = '4'; f.value = '18'; t.value = '22';")
    app.el(".sched-add .acc-button.primary").click()
    acc.wait_view("lot-picker")
    choice = f'.lot-choice[data-lot-id="{lot["id"]}"]'
    app.wait(lambda: app.els(choice), message="the map's lots offered offline")
    assert "Advice comes when Waymark can be reached" in app.el("#accounts").text
    app.js("document.querySelector('#accounts .panel-body').scrollTop = 0")
    app.screenshot(artifacts / "schedule-lot-picker-offline.png")
    app.el(choice).click()
    acc.wait_view("schedule")
    app.wait(lambda: len(waiting()) == 1 and waiting()[0].get("lotId") == lot["id"], message="the waiting block with its lot")
    block = waiting()[0]
    assert (block["weekday"], block["start"], block["end"]) == ("4", "18", "22")
    assert "Waiting to send" in block["said"], block["said"]
    app.screenshot(artifacts / "schedule-block-added-offline.png")

    # Opened again while still offline: the block is drawn from what waits to be sent.
    app.el("#accounts-close").click()
    open_schedule()
    app.wait(lambda: len(waiting()) == 1, message="the waiting block after reopening")
    assert app.js("return JSON.parse(localStorage.getItem('waymark.outbox.v1')).length") == 1, "the lot choice replaced the add"

    own_server.start()
    saved = lambda: api(own_server.url, "GET", "/v1/me/schedule", token=session["token"])[1]["blocks"]  # noqa: E731
    app.wait(saved, timeout=45, message="the block sent")
    assert [(b["weekday"], b["startSlot"], b["endSlot"], b["lotId"]) for b in saved()] == [(4, 18, 22, lot["id"])]
    app.wait(lambda: not waiting() and app.els(f'.sched-block[data-lot-id="{lot["id"]}"]'), message="the server's block, advised")
