"""Booking ahead and the wallet in the web app (PRK-12, PRK-13; UniPark sprint 4): a booking
paid with a top-up made on the way, a forfeit after a no-show, check-in, a change of time and
a cancellation with its refund. A real server with the demo payment provider; the no-show is
simulated by moving a booking's times back in the server's database, as if 20 minutes had
passed without anyone checking in."""
from __future__ import annotations

import json
import pathlib
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from conftest import WaymarkServer
from helpers import App, Accounts, api, new_account, use_session, demo_permits

PASSWORD = "Parking#2026"


@pytest.fixture(scope="module")
def booking_server():
    """Its own server: the no-show test writes to its database."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-bookings-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture()
def app(driver, booking_server) -> App:
    return App(driver, booking_server.url).open()


def register(server) -> dict:
    return new_account(server.url, "booker", PASSWORD)


def sign_in_browser(app: App, session: dict) -> None:
    """The browser keeps the session as the app does after signing in, then starts again."""
    use_session(app, session)
    app.open()


def post(server, path: str, body: dict | None, token: str, key: str | None = None):
    import urllib.error
    import urllib.request
    headers = {"Accept": "application/json", "Authorization": f"Bearer {token}"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if key:
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(server.url + path, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def book(server, token: str, lot_id: str, start: datetime, minutes: int) -> dict:
    status, booking = post(server, "/v1/bookings", {"lotId": lot_id, "start": iso(start), "end": iso(start + timedelta(minutes=minutes))},
                           token, key=str(uuid.uuid4()))
    assert status == 201, booking
    return booking


def next_minute(after_minutes: int = 1) -> datetime:
    now = datetime.now(timezone.utc).replace(second=0, microsecond=0)
    return now + timedelta(minutes=after_minutes + 1)


def wallet(server, token: str) -> tuple[int, list[dict]]:
    _, w = api(server.url, "GET", "/v1/wallet", token=token)
    _, h = api(server.url, "GET", "/v1/wallet/history?currency=USD", token=token)
    usd = next((b["minorUnits"] for b in w["balances"] if b["currency"] == "USD"), 0)
    return usd, h["lines"]


def set_booking_range(app: App, day: str, start: str, end: str) -> None:
    app.js("""
        const sec = document.querySelector('#lot-card [data-testid="booking"]');
        for (const [name, value] of [['day', arguments[0]], ['from', arguments[1]], ['until', arguments[2]]]) {
          const input = sec.querySelector(`input[name="${name}"]`);
          input.value = value;
          input.dispatchEvent(new Event('change', {bubbles: true}));
        }""", day, start, end)


def test_prk12_prk13_book_a_lot_ahead_topping_up_the_wallet_on_the_way(app, booking_server, artifacts):
    lot = booking_server.lot("A")
    assert lot["booking"]["bookableCapacity"] == 60
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.el('#lot-card [data-testid="booking"]'), message="booking section")

    def offer_text():
        # Read where a person would: scrolled into view (text clipped by the card's scroll area
        # is not shown), and again after any redraw of the card by a live update.
        section = app.el('#lot-card [data-testid="booking"]')
        app.js("arguments[0].scrollIntoView({block: 'start'})", section)
        return section.text
    app.wait(lambda: "60 spaces can be booked ahead" in offer_text() and "$12.00 a day" in offer_text(), message="the booking offer")

    # A guest sees prices but is sent to sign in to book: money needs an account.
    tz = ZoneInfo(booking_server.site["timeZone"])
    day = (datetime.now(tz) + timedelta(days=1)).strftime("%Y-%m-%d")
    set_booking_range(app, day, "10:00", "12:00")
    app.wait(lambda: app.el('[data-testid="booking-quote"]').text == "$12.00 · 60 spaces left", message="quote for a guest")
    go = app.el('#lot-card [data-action="book"]')
    assert go.text == "Sign in to book"
    go.click()
    acc = Accounts(app)
    acc.wait_view("signed-out")
    assert "Sign in or create an account to book" in app.el('[data-testid="notice"]').text
    app.el("#accounts-close").click()

    session = register(booking_server)
    token = session["token"]
    sign_in_browser(app, session)
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.el('#lot-card [data-testid="booking"]'), message="booking section")
    set_booking_range(app, day, "10:00", "12:00")
    app.wait(lambda: app.el('[data-testid="booking-quote"]').text == "$12.00 · 60 spaces left", message="quote")
    app.wait(lambda: app.el('#lot-card [data-action="book"]').text == "Book for $12.00", message="book button")
    app.screenshot(artifacts / "booking-lot-card.png")
    app.el('#lot-card [data-action="book"]').click()

    confirm = app.dialog("confirm-booking")
    assert "$12.00 is paid from your wallet" in confirm.text and "nothing is refunded" in confirm.text
    app.dialog_action("confirm-booking", "confirm")

    # The empty wallet cannot pay: the app offers to add the shortfall rounded up to $5.
    offer = app.dialog("top-up-to-book")
    assert "Your wallet holds $0.00 and this booking costs $12.00" in offer.text
    app.screenshot(artifacts / "booking-top-up.png")
    app.dialog_action("top-up-to-book", "1500")

    acc.wait_view("bookings")
    card = app.wait(lambda: app.el('#accounts [data-booking-id]'), message="the booking in Your Bookings")
    assert card.get_attribute("data-state") == "booked"
    assert "Lot A" in card.text or lot["name"] in card.text
    assert "10:00 AM – 12:00 PM" in card.text and "Paid $12.00" in card.text
    app.screenshot(artifacts / "booking-list.png")

    balance, lines = wallet(booking_server, token)
    assert balance == 300, "top-up $15.00 − booking $12.00"
    assert [(l["movement"], l["amount"]["minorUnits"]) for l in lines] == [("bookingPayment", -1200), ("topUp", 1500)]
    _, bookings = api(booking_server.url, "GET", "/v1/bookings", token=token)
    assert len(bookings["bookings"]) == 1, "one booking, however the top-up went"

    # The wallet screen shows the same balance and history.
    app.el("#accounts-back").click()
    acc.wait_view("account")
    acc.menu("wallet")
    acc.wait_view("wallet")
    app.wait(lambda: app.el('[data-testid="wallet-balance"]').text == "$3.00", message="balance")
    rows = app.wait(lambda: app.els('[data-testid="wallet-history"] li') if len(app.els('[data-testid="wallet-history"] li')) == 2 else None,
                    message="history")
    assert rows[0].get_attribute("data-movement") == "bookingPayment" and "−$12.00" in rows[0].text and " A" in rows[0].text
    assert rows[1].get_attribute("data-movement") == "topUp" and "+$15.00" in rows[1].text
    app.screenshot(artifacts / "wallet.png")

    # Adding money from the wallet screen.
    app.el('.wallet-presets [data-amount="1000"]').click()
    app.wait(lambda: app.el('[data-testid="wallet-balance"]').text == "$13.00", message="balance after adding $10")
    assert wallet(booking_server, token)[0] == 1300
    assert not app.console_errors()


def test_prk12_a_booking_nobody_checks_into_is_forfeited_without_refund(app, booking_server, artifacts):
    session = register(booking_server)
    token = session["token"]
    assert post(booking_server, "/v1/wallet/top-ups", {"amountMinor": 5000, "currency": "USD"}, token, key=str(uuid.uuid4()))[0] == 201
    lot = booking_server.lot("A")
    start = next_minute(30)
    booking = book(booking_server, token, lot["id"], start, 60)
    # $12.00 a site-local day: an hour that crosses local midnight is two days' fees.
    paid = booking["paid"]["minorUnits"]
    assert paid in (1200, 2400), booking
    _, before = api(booking_server.url, "GET", f"/v1/lots/{lot['id']}/booking-quote?start={iso(start)}&end={iso(start + timedelta(minutes=60))}")
    sign_in_browser(app, session)
    acc = Accounts(app)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    acc.menu("bookings")
    acc.wait_view("bookings")
    card = app.wait(lambda: app.el(f'[data-booking-id="{booking["id"]}"]'), message="the booking")
    assert card.get_attribute("data-state") == "booked"
    assert "Check in from" in card.text

    # Nobody comes: as if the start was 20 minutes ago.
    shift = 50 * 60_000
    with sqlite3.connect(booking_server.database, timeout=30) as db:
        db.execute("UPDATE bookings SET start_at = start_at - ?, end_at = end_at - ? WHERE id = ?", (shift, shift, booking["id"]))

    deadline = time.time() + 40
    while api(booking_server.url, "GET", f"/v1/bookings/{booking['id']}", token=token)[1]["state"] != "forfeited":
        assert time.time() < deadline, "the server did not forfeit the booking"
        time.sleep(0.5)
    app.wait(lambda: app.el(f'[data-booking-id="{booking["id"]}"]').get_attribute("data-state") == "forfeited",
             timeout=25, message="the list shows the forfeit by itself")
    card = app.el(f'[data-booking-id="{booking["id"]}"]')
    assert "Forfeited" in card.text and "No refund" in card.text
    app.screenshot(artifacts / "booking-forfeited.png")

    balance, lines = wallet(booking_server, token)
    assert balance == 5000 - paid, "nothing refunded"
    assert lines[0]["movement"] == "forfeit" and lines[0]["amount"]["minorUnits"] == 0
    # The space went back: the range quoted before is as free as before the booking.
    _, after = api(booking_server.url, "GET",
                   f"/v1/lots/{lot['id']}/booking-quote?start={iso(start)}&end={iso(start + timedelta(minutes=60))}")
    assert after["spacesLeft"] == before["spacesLeft"] + 1

    app.el("#accounts-back").click()
    acc.wait_view("account")
    acc.menu("wallet")
    acc.wait_view("wallet")
    first = app.wait(lambda: app.el('[data-testid="wallet-history"] li'), message="history")
    assert first.get_attribute("data-movement") == "forfeit" and "no refund" in first.text


def test_prk12_check_in_change_time_and_cancel_with_refund(app, booking_server):
    session = register(booking_server)
    token = session["token"]
    assert post(booking_server, "/v1/wallet/top-ups", {"amountMinor": 5000, "currency": "USD"}, token, key=str(uuid.uuid4()))[0] == 201
    nps = booking_server.lot("NPS")
    lot_a = booking_server.lot("A")
    soon = book(booking_server, token, lot_a["id"], next_minute(5), 60)
    tz = ZoneInfo(booking_server.site["timeZone"])
    tomorrow = (datetime.now(tz) + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
    later = book(booking_server, token, nps["id"], tomorrow, 120)
    assert later["paid"]["minorUnits"] == 300, "NPS: $3.00 a day with 2 h included"

    sign_in_browser(app, session)
    acc = Accounts(app)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    acc.menu("bookings")
    acc.wait_view("bookings")

    # Directions lead to the booked lot's entrance, in the phone's maps app.
    way = app.wait(lambda: app.el(f'[data-booking-id="{later["id"]}"] [data-action="directions"]'), message="directions link")
    entrance = later["lotEntrance"]
    assert f'{entrance["latitude"]},{entrance["longitude"]}' in way.get_attribute("href")
    assert way.get_attribute("target") == "_blank"

    # Check in: open from 15 minutes before the start.
    app.wait(lambda: app.el(f'[data-booking-id="{soon["id"]}"] [data-action="check-in"]'), message="check-in button").click()
    app.wait(lambda: app.el(f'[data-booking-id="{soon["id"]}"]').get_attribute("data-state") == "checkedIn", message="checked in")
    assert api(booking_server.url, "GET", f"/v1/bookings/{soon['id']}", token=token)[1]["state"] == "checkedIn"

    # Change the time of tomorrow's booking to 9:00–13:00: 2 h included, then 4¢ a minute → $7.80.
    app.el(f'[data-booking-id="{later["id"]}"] [data-action="change"]').click()
    acc.wait_view("change-booking")
    app.js("const i = document.querySelector('form[data-form=\"change-booking\"] [name=\"until\"]');"
           "i.value = '13:00'; i.dispatchEvent(new Event('change'));")
    app.wait(lambda: app.el('[data-testid="change-quote"]').text == "$7.80 · you pay $4.80 more", message="change quote")
    acc.submit("change-booking")
    acc.wait_view("bookings")
    changed = api(booking_server.url, "GET", f"/v1/bookings/{later['id']}", token=token)[1]
    assert changed["paid"]["minorUnits"] == 780 and changed["modifications"] == 1
    app.wait(lambda: "changed once" in app.el(f'[data-booking-id="{later["id"]}"]').text, message="modification shown")

    # Cancel: everything paid comes back.
    before, _ = wallet(booking_server, token)
    app.el(f'[data-booking-id="{later["id"]}"] [data-action="cancel"]').click()
    dialog = app.dialog("cancel-booking")
    assert "$7.80 goes back to your wallet" in dialog.text
    app.dialog_action("cancel-booking", "confirm")
    app.wait(lambda: app.el(f'[data-booking-id="{later["id"]}"]').get_attribute("data-state") == "cancelled", message="cancelled")
    after, lines = wallet(booking_server, token)
    assert after == before + 780
    assert lines[0]["movement"] == "cancellationRefund"
    assert not app.console_errors()


def test_prk19_bookings_and_permits_made_offline_are_sent_once_when_back_online(driver, own_server, artifacts):
    session = register(own_server)
    token = session["token"]
    assert post(own_server, "/v1/wallet/top-ups", {"amountMinor": 2000, "currency": "USD"}, token, key=str(uuid.uuid4()))[0] == 201
    lot = own_server.lot("A")
    app = App(driver, own_server.url).open()
    sign_in_browser(app, session)
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.el('#lot-card [data-testid="booking"]'), message="booking section")
    tz = ZoneInfo(own_server.site["timeZone"])
    day1 = (datetime.now(tz) + timedelta(days=1)).strftime("%Y-%m-%d")
    day2 = (datetime.now(tz) + timedelta(days=2)).strftime("%Y-%m-%d")
    set_booking_range(app, day1, "10:00", "12:00")
    app.wait(lambda: app.el('[data-testid="booking-quote"]').text == "$12.00 · 60 spaces left", message="quote online")

    acc = Accounts(app)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    acc.menu("permits")
    acc.wait_view("permits")
    app.wait(lambda: app.el(".permit-set").is_enabled(), message="permits loaded")

    own_server.stop()
    # A permit chosen offline is kept here and waits.
    app.el('.permit-set input[value="green"]').click()
    app.wait(lambda: app.el('[data-testid="permits-status"]').text.startswith("Offline"), message="permit queued")
    app.el("#accounts-close").click()
    # Two bookings made offline: the wallet ($20) pays for the first only.
    for day in (day1, day2):
        app.js("window.waymark.openLot(arguments[0])", lot["id"])
        set_booking_range(app, day, "10:00", "12:00")
        app.wait(lambda: app.el('#lot-card [data-action="book"]').text == "Book when back online", message="offline booking offered")
        assert "Offline" in app.el('[data-testid="booking-quote"]').text
        app.el('#lot-card [data-action="book"]').click()
        dialog = app.dialog("confirm-offline-booking")
        assert "$12.00 a day" in dialog.text
        app.dialog_action("confirm-offline-booking", "confirm")
        Accounts(app).wait_view("bookings")
        app.el("#accounts-close").click()
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    assert app.el("#nav-me").get_attribute("data-waiting") == "3"
    assert "3 changes wait to be sent" in app.el('#accounts [data-action="outbox"]').text
    acc.menu("bookings")
    acc.wait_view("bookings")
    waiting = app.wait(lambda: (w := app.els('[data-testid="bookings-waiting"] [data-write-id]')) and len(w) == 2 and w,
                       message="the two waiting bookings listed")
    assert [w.get_attribute("data-state") for w in waiting] == ["pending", "pending"]
    assert "Book A" in waiting[0].text and "Made offline" in waiting[0].text
    app.screenshot(artifacts / "bookings-offline-waiting.png")

    # Back online: the outbox sends by itself; the first booking is made once, the second is
    # refused for want of money and says so, with Try again and Discard.
    own_server.start()
    app.wait(lambda: len(app.els('[data-testid="bookings-waiting"] [data-state="failed"]')) == 1
             and len(app.els('[data-testid="bookings-waiting"] [data-write-id]')) == 1, timeout=45, message="outbox sent")
    failed = app.el('[data-testid="bookings-waiting"] [data-state="failed"]')
    assert "wallet" in failed.text.lower(), failed.text
    assert "10:00 AM – 12:00 PM" in failed.text, "the range the person chose, not an earlier one"
    pending_days = [w.get_attribute("data-write-id") for w in app.els('[data-testid="bookings-waiting"] [data-write-id]')]
    assert len(pending_days) == 1
    app.wait(lambda: len(app.els('#accounts [data-booking-id]')) == 1, timeout=20, message="the sent booking listed")
    _, bookings = api(own_server.url, "GET", "/v1/bookings", token=token)
    assert [b["state"] for b in bookings["bookings"]] == ["booked"], "made once"
    start = datetime.fromisoformat(bookings["bookings"][0]["start"].replace("Z", "+00:00")).astimezone(tz)
    assert (start.strftime("%Y-%m-%d"), start.hour, start.minute) == (day1, 10, 0)
    assert wallet(own_server, token)[0] == 800
    status, held = api(own_server.url, "GET", "/v1/me/permits", token=token)
    assert status == 200 and held == demo_permits(own_server.url, ["green"])
    assert app.el("#nav-me").get_attribute("data-failed") == "true"
    app.screenshot(artifacts / "bookings-offline-failed.png")
    failed.find_element("css selector", '[data-action="discard"]').click()
    app.wait(lambda: not app.els('[data-testid="bookings-waiting"] [data-write-id]'), message="discarded")
    assert app.el("#nav-me").get_attribute("data-waiting") == "0"


def test_prk12_book_every_week_until_a_day_dates_that_cannot_be_booked_said_why_then_cancel_the_rest(app, booking_server, artifacts):
    """UniPark's "every Tuesday 11:00–21:00 until June", shortened: four weekly dates, one the
    operator has closed, one on which the person already has two bookings (their limit)."""
    session = register(booking_server)
    token = session["token"]
    assert post(booking_server, "/v1/wallet/top-ups", {"amountMinor": 10000, "currency": "USD"}, token, key=str(uuid.uuid4()))[0] == 201
    lot = booking_server.lot("A")
    tz = ZoneInfo(booking_server.site["timeZone"])
    first = (datetime.now(tz) + timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
    weeks = [first + timedelta(days=7 * i) for i in range(4)]

    ops = new_account(booking_server.url, "ops", PASSWORD, email=f"ops{uuid.uuid4().hex[:6]}@example.com")
    out = subprocess.run([str(booking_server.binary), "operator", "grant", ops["user"]["email"], "--site", booking_server.site["code"],
                          "--database", str(booking_server.database)], capture_output=True, text=True, env=booking_server.env)
    assert out.returncode == 0, out.stderr
    closed_day = weeks[1].replace(hour=0)
    status, closure = post(booking_server, f"/v1/lots/{lot['id']}/closures",
                           {"start": iso(closed_day), "end": iso(closed_day + timedelta(days=1)), "reason": "Commencement"}, ops["token"])
    assert status == 201, closure
    for _ in range(2):
        book(booking_server, token, lot["id"], weeks[2], 120)

    sign_in_browser(app, session)
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.el('#lot-card [data-testid="booking"]'), message="booking section")
    set_booking_range(app, first.strftime("%Y-%m-%d"), "10:00", "12:00")
    app.js("document.querySelector('#lot-card input[name=\"repeat\"]').click()")
    app.js("""const i = document.querySelector('#lot-card input[name="repeat-until"]');
              i.value = arguments[0]; i.dispatchEvent(new Event('change', {bubbles: true}));""", weeks[3].strftime("%Y-%m-%d"))
    weekday = first.strftime("%A")
    quoted = lambda: app.js("return document.querySelector('#lot-card [data-testid=\"booking-quote\"]').textContent")
    line = app.wait(lambda: "3 of 4 dates" in quoted() and quoted(), message=f"the weekly quote ({quoted()})")
    assert line.startswith(f"Every {weekday}, 10:00") and "$36.00 in all" in line, line
    app.js("arguments[0].scrollIntoView({block: 'center'})", app.el('#lot-card [data-testid="booking-dates"]'))
    dates = app.els('#lot-card [data-testid="booking-dates"] li')
    assert len(dates) == 4
    assert [d.get_attribute("class") for d in dates] == ["", "unavailable", "", ""]
    assert "$12.00" in dates[0].text and "Commencement" in dates[1].text, dates[1].text
    assert "T10:00" not in app.el('#lot-card [data-testid="booking"]').text, "no ISO timestamps"
    app.wait(lambda: app.el('#lot-card [data-action="book"]').text == "Book 3 dates for $36.00", message="book button")
    app.js("arguments[0].scrollIntoView({block: 'center'})", app.el('#lot-card [data-testid="booking"]'))
    app.screenshot(artifacts / "booking-weekly.png")
    app.el('#lot-card [data-action="book"]').click()
    assert f"Every {weekday}" in app.dialog("confirm-booking").text
    app.dialog_action("confirm-booking", "confirm")

    # The date over the person's limit is only known when booking: it is told, with why.
    skipped = app.dialog("series-skipped").text
    assert "Commencement" in skipped and "at most 2 may overlap" in skipped, skipped
    app.screenshot(artifacts / "booking-weekly-skipped.png")
    app.dialog_action("series-skipped", "ok")

    acc = Accounts(app)
    acc.wait_view("bookings")
    _, listed = api(booking_server.url, "GET", "/v1/bookings", token=token)
    weekly = [b for b in listed["bookings"] if b.get("seriesId")]
    assert len(weekly) == 2 and {datetime.fromisoformat(b["start"].replace("Z", "+00:00")) for b in weekly} == {weeks[0], weeks[3]}
    assert wallet(booking_server, token)[0] == 10000 - 4 * 1200
    card = app.wait(lambda: app.el(f'[data-booking-id="{weekly[0]["id"]}"]'), message="a weekly date in Your Bookings")
    assert "Repeats weekly · All dates" in card.text
    # A series shows its next date; the others fold under it until opened.
    more = app.el(f'[data-action="show-series"][data-series-id="{weekly[0]["seriesId"]}"]')
    assert "1 more weekly date, the last" in more.text, more.text
    assert not app.els(f'[data-booking-id="{weekly[1]["id"]}"]')
    more.click()
    app.wait(lambda: app.els(f'[data-booking-id="{weekly[1]["id"]}"]'), message="the series opened")

    # The weekly booking on its own screen: every date, and the dates left out with why, kept.
    app.el(f'[data-booking-id="{weekly[0]["id"]}"] [data-action="open-series"]').click()
    acc.wait_view("weekly")
    assert app.js("return location.pathname") == f"/me/weekly/{weekly[0]['seriesId']}"
    page = '[data-testid="series"]'
    app.wait(lambda: len(app.els(f"{page} .series-date[data-booking-id]")) == 2, message="the series' dates")
    text = app.el(page).text
    assert f"Every {weekday}" in text and lot["name"] in text, text
    assert "2 booked" in text and "$24.00 paid" in text, text
    left_out = [" ".join(li.text.split()) for li in app.els('[data-testid="series-skipped"] li')]
    assert len(left_out) == 2 and "Commencement" in left_out[0] and "at most 2 may overlap" in left_out[1], left_out
    assert "10:00" in left_out[0], left_out
    assert not re.search(r"\d{4}-\d{2}-\d{2}T|[0-9a-f]{8}-[0-9a-f]{4}-", text), text
    app.screenshot(artifacts / "booking-weekly-series.png")

    app.el(f'{page} [data-action="cancel-series"]').click()
    dialog = app.dialog("cancel-series").text
    assert "all 2 dates left" in dialog and "$24.00 goes back to your wallet" in dialog and f"Every {weekday}" in dialog, dialog
    app.dialog_action("cancel-series", "confirm")
    app.wait(lambda: [li.get_attribute("data-state") for li in app.els(f"{page} .series-date[data-booking-id]")] == ["cancelled", "cancelled"],
             message="both weekly dates cancelled")
    assert not app.els(f'{page} [data-action="cancel-series"]'), "nothing left to cancel"
    assert wallet(booking_server, token)[0] == 10000 - 2 * 1200
    assert not app.console_errors()
