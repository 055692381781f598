"""The plan reaching out (PLN-7, PLN-9, PLN-10): time to leave arriving in the inbox live from
where the browser is; a transit trip's ticket, whose QR code a real reader decodes from the
screen and which shows with no connection; a calendar file imported with its report, downloaded
and followed by subscription, each read back by an independent iCalendar parser (the PyPI
`icalendar` package)."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from conftest import WaymarkServer
from helpers import App, api
from test_planner import BOVISA, LEONARDO, ZONE, add_event, in_milan, next_weekday, token, wait_day


# A raw timestamp, as an API gives it ("2026-11-30T09:20:00.000Z"): never what a person reads.
ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


@pytest.fixture()
def app(driver, server) -> App:
    in_milan(driver)
    return App(driver, server.url)


def decode_qr(png: Path) -> str:
    zbar = shutil.which("zbarimg")
    assert zbar, "zbarimg is not installed: apt-get install zbar-tools"
    out = subprocess.run([zbar, "--raw", "-q", str(png)], capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, f"no QR code read from {png}: {out.stderr}"
    return out.stdout.strip()


def fetch(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=15) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_PLN_9_a_transit_trips_ticket_has_a_qr_code_a_real_reader_decodes_and_shows_offline(driver, own_server, artifacts):
    in_milan(driver)
    app = App(driver, own_server.url)
    day = next_weekday(2)
    app.open(f"/plan/day/{day}")
    wait_day(app, day)
    places = {p["name"]: p for p in api(own_server.url, "GET", "/v1/planner/places?q=Politecnico&limit=20")[1]["places"]}
    at = lambda n: {k: places[n][k] for k in ("name", "latitude", "longitude")}  # noqa: E731
    add_event(own_server, token(app), title="Lecture", start=f"{day}T08:00", end=f"{day}T09:00", place=at(LEONARDO), modes=["walk", "transit"])
    lab = add_event(own_server, token(app), title="Lab", start=f"{day}T10:00", end=f"{day}T12:00", place=at(BOVISA), modes=["walk", "transit"])
    event_id = (lab.get("event") or lab)["id"]
    page = f"/plan/event/{urllib.parse.quote(event_id)}/{day}"
    app.open(page)
    app.wait(lambda: app.els("#plan-buy-ticket"), timeout=15, message="Buy ticket on the transit leg")
    app.el("#plan-buy-ticket").click()
    card = app.wait(lambda: app.els("#plan .plan-ticket"), timeout=15, message="the ticket")[0]
    status, listed = api(own_server.url, "GET", "/v1/me/planner/tickets", token=token(app))
    assert status == 200 and len(listed["tickets"]) == 1, listed
    ticket = listed["tickets"][0]
    assert card.get_attribute("data-code") == ticket["code"] and ticket["code"] in card.text
    assert "Demo ticket: not valid for travel" in card.text and "€2.20" in card.text, card.text
    assert not ISO_TIME.search(card.text), "times read as the locale writes them"
    # The QR code as drawn on the screen, read by zbar.
    app.js("arguments[0].scrollIntoView({block: 'center'})", card)
    qr = app.el("#plan .plan-ticket-qr")
    png = artifacts / "plan-ticket-qr.png"
    qr.screenshot(str(png))
    assert decode_qr(png) == ticket["qrText"]
    app.screenshot(artifacts / "plan-phone-ticket.png")
    # Buying again gives the same ticket.
    status, again = api(own_server.url, "POST", f"/v1/me/planner/events/{event_id}/occurrences/{day}/ticket", token=token(app))
    assert status == 200 and again["code"] == ticket["code"]

    # On a platform with no signal: the page comes from the browser's copy, the ticket with it.
    own_server.stop()
    app.open(page)
    offline = app.wait(lambda: app.els("#plan .plan-ticket"), timeout=15, message="the ticket offline")[0]
    assert offline.get_attribute("data-code") == ticket["code"]
    png = artifacts / "plan-ticket-qr-offline.png"
    app.el("#plan .plan-ticket-qr").screenshot(str(png))
    assert decode_qr(png) == ticket["qrText"]
    app.screenshot(artifacts / "plan-phone-ticket-offline.png")


def term_calendar(start_day: str) -> str:
    """A weekly lecture from `start_day` (a Monday) for four weeks with one week off, a monthly
    seminar, a three-day trip Waymark leaves out, and a property of the university's own."""
    d = start_day.replace("-", "")
    off = (datetime.fromisoformat(start_day) + timedelta(days=7)).strftime("%Y%m%d")
    lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Politecnico//Timetable//IT", "X-WR-CALNAME:Autumn term",
        "BEGIN:VEVENT", "UID:lecture-1@polimi.example", "DTSTAMP:20261101T080000Z",
        f"DTSTART;TZID=Europe/Rome:{d}T090000", f"DTEND;TZID=Europe/Rome:{d}T110000", "RRULE:FREQ=WEEKLY;COUNT=4",
        f"EXDATE;TZID=Europe/Rome:{off}T090000", "SUMMARY:Algorithms lecture", "LOCATION:Aula 3.1.2", "GEO:45.4781;9.2272",
        "X-POLIMI-ROOM-CODE:L31.2", "END:VEVENT",
        "BEGIN:VEVENT", "UID:seminar@polimi.example", "DTSTAMP:20261101T080000Z",
        f"DTSTART;TZID=Europe/Rome:{d}T170000", f"DTEND;TZID=Europe/Rome:{d}T180000", "RRULE:FREQ=MONTHLY;COUNT=3",
        "SUMMARY:Research seminar", "END:VEVENT",
        "BEGIN:VEVENT", "UID:trip@polimi.example", "DTSTAMP:20261101T080000Z",
        f"DTSTART;VALUE=DATE:{d}", f"DTEND;VALUE=DATE:{(datetime.fromisoformat(start_day) + timedelta(days=3)).strftime('%Y%m%d')}",
        "SUMMARY:Field trip", "END:VEVENT",
        "END:VCALENDAR", ""]
    return "\r\n".join(lines)


def test_PLN_10_a_calendar_file_imports_with_a_report_downloads_and_is_followed_by_subscription(app, server, artifacts):
    monday = (datetime.now(ZoneInfo(ZONE)).date() + timedelta(days=7 - datetime.now(ZoneInfo(ZONE)).weekday())).isoformat()
    folder = Path(tempfile.mkdtemp(prefix="waymark-ics-"))
    file = folder / "Autumn term.ics"
    file.write_text(term_calendar(monday), encoding="utf-8")
    app.open("/plan/calendars")
    app.wait(lambda: app.js("return document.getElementById('plan-calendar-list')?.dataset.loaded === 'true'"), message="calendars")
    app.el("#plan-import-file").send_keys(str(file))
    report = app.wait(lambda: [r for r in app.els("#plan .plan-import-report") if "added" in r.text], timeout=15, message="the import report")[0]
    assert "From “Autumn term.ics” into Autumn term: 4 events added." in report.text, report.text
    assert "Field trip" in report.text and "24 hours" in report.text, "what was left out, and why"
    assert not ISO_TIME.search(report.text), report.text
    app.wait(lambda: "Autumn term" in app.el("#plan-calendar-list").text, message="the new calendar listed")
    app.wait(lambda: not app.js("return document.getElementById('toast').classList.contains('show')"), message="the toast gone")
    app.js("arguments[0].scrollIntoView({block: 'end'})", report)
    app.screenshot(artifacts / "plan-phone-import-report.png")

    # The week off is not in the plan; the next week's lecture is.
    status, occ = api(server.url, "GET", f"/v1/me/planner/occurrences?from={monday}&to={(datetime.fromisoformat(monday) + timedelta(days=30)).date()}",
                      token=token(app))
    lectures = [o for o in occ["occurrences"] if o["title"] == "Algorithms lecture"]
    assert len(lectures) == 3, lectures

    calendar = next(c for c in api(server.url, "GET", "/v1/me/planner/calendars", token=token(app))[1]["calendars"] if c["name"] == "Autumn term")
    app.open(f"/plan/calendars/{calendar['id']}")
    app.wait(lambda: app.els("#plan-subscribe"), timeout=15, message="the subscription controls")
    app.el("#plan-subscribe").click()
    url = app.wait(lambda: app.els("#plan-subscription-url"), message="the address")[0].get_attribute("value")
    assert url.startswith(server.url + "/v1/calendar-feeds/wcal_") and url.endswith(".ics"), url
    assert app.el("a[href^='webcal:']").get_attribute("href") == url.replace("http:", "webcal:")
    app.js("document.getElementById('plan-subscription-url').scrollIntoView({block: 'center'})")
    app.screenshot(artifacts / "plan-phone-subscription.png")

    # What a calendar app reads: an independent parser sees the events, the repeat and the week off.
    status, headers, body = fetch(url)
    assert status == 200 and headers["Content-Type"].startswith("text/calendar"), headers
    cal = icalendar.Calendar.from_ical(body)
    assert str(cal.get("X-WR-CALNAME")) == "Autumn term" and cal.decoded("REFRESH-INTERVAL") == timedelta(hours=1)
    events = {str(e.get("UID")): e for e in cal.walk("VEVENT")}
    lecture = events["lecture-1@polimi.example"]
    assert lecture.get("RRULE")["FREQ"] == ["WEEKLY"] and str(lecture.get("X-POLIMI-ROOM-CODE")) == "L31.2"
    exdates = [d.dt.date().isoformat() for x in (lecture.get("EXDATE") if isinstance(lecture.get("EXDATE"), list) else [lecture.get("EXDATE")]) for d in x.dts]
    assert exdates == [(datetime.fromisoformat(monday) + timedelta(days=7)).date().isoformat()]
    assert lecture.decoded("DTSTART").tzinfo is not None and str(lecture.decoded("DTSTART").tzinfo) in ("Europe/Rome", "CET")
    assert "trip@polimi.example" not in events
    assert fetch(url, {"If-None-Match": headers["ETag"]})[0] == 304
    assert fetch(url, {"If-Modified-Since": headers["Last-Modified"]})[0] == 304

    # The download is the same calendar, and it imports back to the same occurrences.
    status, _, download = fetch(f"{server.url}/v1/me/planner/calendars/{calendar['id']}/ics", {"Authorization": f"Bearer {token(app)}"})
    assert status == 200 and len(list(icalendar.Calendar.from_ical(download).walk("VEVENT"))) == len(events)
    assert app.console_errors() == []
    shutil.rmtree(folder, ignore_errors=True)


def test_PLN_7_time_to_leave_reaches_the_inbox_live_from_where_i_am_and_opens_the_event(driver, artifacts):
    workdir = Path(tempfile.mkdtemp(prefix="waymark-browser-leave-"))
    # The job looks every second here, so the test waits for the notice, not for a minute to pass.
    server = WaymarkServer(workdir, env={"WAYMARK_LEAVE_ALERT_SECONDS": "1"}).start()
    try:
        in_milan(driver)
        app = App(driver, server.url)
        app.cdp("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})
        app.cdp("Emulation.setGeolocationOverride", {"latitude": 45.4642, "longitude": 9.1900, "accuracy": 20})  # the Duomo
        app.open("/plan/travel")
        switch = app.wait(lambda: app.els("input[name=leaveFromHere]"), timeout=15, message="the switch in Travel")[0]
        app.js("arguments[0].click()", switch)
        app.wait(lambda: app.js("return localStorage.getItem('waymark.plan.leaveFromHere.sent')"), timeout=15, message="the position sent")

        # A meeting a walk of about 20 minutes away, in ten minutes: it is time to leave now.
        now = datetime.now(ZoneInfo(ZONE))
        start = (now + timedelta(minutes=11)).replace(second=0, microsecond=0)
        wall = lambda t: t.strftime("%Y-%m-%dT%H:%M")  # noqa: E731
        body = add_event(server, token(app), title="Seminar", start=wall(start), end=wall(start + timedelta(hours=1)),
                         place={"name": "Palazzo Isimbardi", "latitude": 45.4660, "longitude": 9.2020}, modes=["walk"])
        event_id = (body.get("event") or body)["id"]
        app.wait(lambda: app.el("#btn-notifications").get_attribute("data-unread") == "1", timeout=20, message="the notice live on the bell")
        # The Travel sheet is pulled up over the map's buttons: back to the day, then the bell.
        app.open(f"/plan/day/{start.date().isoformat()}")
        app.wait(lambda: app.el("#btn-notifications").get_attribute("data-unread") == "1", timeout=15, message="the count after a reload")
        app.el("#btn-notifications").click()
        app.wait_still("#accounts")  # on a phone the inbox slides up: a tap during that lands below the notice
        item = app.wait(lambda: [i for i in app.els("[data-testid=inbox] .inbox-item[data-kind='time-to-leave']") if "Time to leave for “Seminar”" in i.text],
                        timeout=15, message="the notice in the inbox")[0]
        item.find_element("css selector", ".inbox-open").click()
        app.wait(lambda: "Palazzo Isimbardi by" in app.el("[data-testid=inbox] .inbox-item").text, message="the notice opened")
        text = app.el("[data-testid=inbox] .inbox-item").text
        assert "min walking" in text and "Leave at " in text, text
        assert not ISO_TIME.search(text), "times as a person reads them"
        app.screenshot(artifacts / "plan-phone-time-to-leave.png")
        status, inbox = api(server.url, "GET", "/v1/me/notifications", token=token(app))
        assert [n["kind"] for n in inbox["notifications"]] == ["time-to-leave"], "sent once"
        link = app.wait(lambda: [a for a in app.els("[data-testid=inbox] a") if a.text == "Open the event"], message="the link to the event")[0]
        link.click()
        app.wait(lambda: app.js("return location.pathname") == f"/plan/event/{event_id}/{start.date().isoformat()}", message="the event opened")
        app.wait(lambda: app.els("#plan-event-title"), timeout=15, message="the event page")
        assert app.el("#plan-event-title").text == "Seminar"
        assert app.console_errors() == []
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


CORPUS = Path(__file__).resolve().parents[1] / "WaymarkCoreTests" / "Fixtures" / "ical"


@pytest.fixture()
def unthrottled_server():
    """A server without the write budget: the corpus test imports 160 files one after another."""
    workdir = Path(tempfile.mkdtemp(prefix="waymark-browser-ics-"))
    s = WaymarkServer(workdir, env={"WAYMARK_WRITE_RATE": "0"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def test_PLN_10_every_corpus_file_that_imports_exports_a_file_the_icalendar_package_reads_with_the_same_events(unthrottled_server):
    """Each of the 160 corpus files into a calendar of its own, out again, and read by the PyPI
    `icalendar` package: every event Waymark kept is there with its UID, start and end."""
    server = unthrottled_server
    status, device = api(server.url, "POST", "/v1/devices")
    assert status == 201, device
    tok = device["token"]
    exported = 0
    for i, file in enumerate(sorted(CORPUS.rglob("*.ics"))):
        request = urllib.request.Request(
            f"{server.url}/v1/me/planner/calendars/import?file={urllib.parse.quote(file.name)}&timeZone=Europe%2FRome",
            data=file.read_bytes(), method="POST", headers={"Authorization": f"Bearer {tok}", "Content-Type": "text/calendar"})
        try:
            with urllib.request.urlopen(request, timeout=20) as r:
                report = __import__("json").loads(r.read())
        except urllib.error.HTTPError as e:
            assert e.code == 422, f"{file.name}: {e.code} {e.read()[:300]!r}"
            continue
        if not report["added"] and not report["updated"]:
            continue
        calendar = report["calendar"]["id"]
        status, headers, body = fetch(f"{server.url}/v1/me/planner/calendars/{calendar}/ics", {"Authorization": f"Bearer {tok}"})
        assert status == 200, (file.name, status)
        cal = icalendar.Calendar.from_ical(body)
        events = list(cal.walk("VEVENT"))
        masters = [e for e in events if e.get("RECURRENCE-ID") is None]
        assert len({str(e.get("UID")) for e in masters}) == len(masters), f"{file.name}: one master per UID"
        for e in events:
            start, end = e.decoded("DTSTART"), e.decoded("DTEND")
            assert end > start, f"{file.name}: {e.get('UID')} ends after it starts"
        exported += 1
        # A calendar per file would pass the 50 a person may have: the next files start afresh.
        status, _ = api(server.url, "DELETE", f"/v1/me/planner/calendars/{calendar}", token=tok)
        assert status == 204, (file.name, status)
    assert exported >= 70, exported
