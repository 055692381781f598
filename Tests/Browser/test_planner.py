"""The Plan in the browser: a guest's first visit (one "Personal" calendar and a hint), calendars
made, renamed and recoloured with RGB sliders and a contrast check, and deleted after asking;
fixed and flexible events at places found by name, planned in order with the trip between them
and lunch kept; an event that cannot be reached in time said at once and marked red with why;
the week; earlier days without travel; the phone and the desktop layouts. The browser runs in
Milan's zone, where the demo's places are. Requirements: PLN-1 (calendars), PLN-2 (events and
their form), PLN-3 (the day, the week, the map), PLN-5 (arrival states and warnings)."""
from __future__ import annotations

import json
import math
import urllib.parse
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver
from helpers import App, api

ZONE = "Europe/Rome"
MODE_WORDS = {"walk": "Walk", "bike": "Bike", "transit": "Public transport", "car": "Car", "rideShare": "Ride share"}
LEONARDO = "Politecnico di Milano – Leonardo campus"
BOVISA = "Politecnico di Milano – Bovisa La Masa"


def in_days(n: int) -> str:
    return (datetime.now(ZoneInfo(ZONE)).date() + timedelta(days=n)).isoformat()


def in_milan(driver) -> None:
    """The browser's clock reads Milan's time, so new events are in its zone."""
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ZONE})


@pytest.fixture()
def app(driver, server) -> App:
    in_milan(driver)
    return App(driver, server.url)


# ---- Reading the page ----

def path(app: App) -> str:
    return app.js("return location.pathname")


def wait_day(app: App, day: str) -> None:
    app.wait(lambda: app.js("const d = document.querySelector('#plan .plan-day');"
                            "return !!d && d.dataset.day === arguments[0] && d.dataset.loaded === 'true'", day),
             timeout=15, message=f"the plan of {day}")


def day_data(app: App) -> dict:
    return app.js("return {...document.querySelector('#plan .plan-day').dataset}")


def steps(app: App) -> list[dict]:
    return app.js("return [...document.querySelectorAll('#plan .plan-step')]"
                  ".map(s => ({...s.dataset, title: s.querySelector('.plan-title')?.textContent, text: s.innerText}))")


def legs(app: App) -> list[dict]:
    return app.js("return [...document.querySelectorAll('#plan .plan-leg')].map(s => ({...s.dataset, text: s.innerText}))")


def calendar_chips(app: App) -> list[str]:
    return [e.text for e in app.els("#plan .plan-calendars .plan-calendar")]


def set_value(app: App, css: str, value: str) -> None:
    """Sets a date, time, number or range input as the person's picker would, with its events."""
    app.js("const e = document.querySelector(arguments[0]); e.value = arguments[1];"
           "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
           css, value)


def field_error(app: App, name: str) -> str:
    """The message next to a form field (empty when hidden)."""
    return app.js("const w = document.querySelector(`#plan [data-field='${arguments[0]}'] .plan-field-error`);"
                  "return w && !w.hidden ? w.textContent : ''", name)


def save_enabled(app: App, css: str = "#plan-save") -> bool:
    return app.el(css).is_enabled()


def choose_place(app: App, query: str, name: str) -> None:
    box = app.el("#plan-place-search")
    box.clear()
    box.send_keys(query)
    app.wait(lambda: app.js("return document.getElementById('plan-place-results').dataset.query") == query,
             message=f"places for {query}")
    button = next(b for b in app.els("#plan-place-results .plan-result")
                  if b.find_element(By.CSS_SELECTOR, ".plan-result-name").text == name)
    button.click()
    app.wait(lambda: app.el("#plan-place-chosen").is_displayed(), message="the place chosen")
    assert name in app.el("#plan-place-chosen").text


def shot(app: App, file) -> None:
    """A screenshot of the Plan from the top of its sheet (the accessibility audit scrolls it),
    once a passing message ("Event added…") has gone."""
    app.wait(lambda: not app.js("return document.getElementById('toast').classList.contains('show')"), message="the toast gone")
    app.js("document.querySelector('#plan .sheet-body')?.scrollTo(0, 0)")
    app.screenshot(file)


def token(app: App) -> str:
    return app.js("return localStorage.getItem('waymark.device.token')")


def new_event_form(app: App, day: str) -> None:
    app.el("#plan-new").click()
    app.wait(lambda: path(app) == f"/plan/new/{day}" and app.els("#plan-event-form"), message="the event form")


def save_event(app: App, day: str) -> None:
    app.wait(lambda: save_enabled(app), message="Save enabled")
    app.el("#plan-save").click()
    app.wait(lambda: path(app) == f"/plan/day/{day}", message="back on the day")
    wait_day(app, day)


def add_event(server, tok: str, **event) -> dict:
    status, body = api(server.url, "POST", "/v1/me/planner/events", {"timeZone": ZONE, **event}, token=tok)
    assert status == 201, body
    return body


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def lum(c):
        def ch(v):
            s = v / 255
            return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    x, y = lum(a), lum(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)


# ---- Tests ----

def test_PLN_1_a_guest_opening_the_plan_sees_one_personal_calendar_and_what_to_do(app, server, artifacts):
    app.open("/")
    app.el("#nav-plan").click()
    today = in_days(0)
    app.wait(lambda: path(app) == "/plan", message="the Plan's path")
    wait_day(app, today)
    assert app.el("#nav-plan").get_attribute("aria-current") == "page"
    assert app.el("#plan-tab-day").get_attribute("aria-current") == "page"
    assert calendar_chips(app) == ["Personal"]
    empty = app.el("#plan-empty").text
    assert "Nothing planned for this day." in empty and "New event" in empty, empty
    assert day_data(app)["events"] == "0" and steps(app) == []
    # The calendar the page shows is the one the server made on the first read.
    status, cals = api(server.url, "GET", "/v1/me/planner/calendars", token=token(app))
    assert status == 200 and [c["name"] for c in cals["calendars"]] == ["Personal"]
    assert cals["defaultCalendarId"] == cals["calendars"][0]["id"]
    shot(app, artifacts / "plan-phone-empty.png")
    # The sheet leaves the map its top third and stays clear of the tab bar.
    sheet, bar = app.el("#plan").rect, app.el("nav#areas").rect
    assert sheet["y"] >= 844 * 0.3 and sheet["y"] + sheet["height"] <= bar["y"] + 0.5, (sheet, bar)
    assert app.console_errors() == []


def test_PLN_1_calendars_are_made_renamed_and_recoloured_with_rgb_sliders_and_deleted_after_asking(app, server, artifacts):
    app.open("/plan/calendars")
    app.wait(lambda: app.js("return document.getElementById('plan-calendar-list').dataset.loaded") == "true", message="calendars")
    assert [e.text for e in app.els("#plan-calendar-list .plan-title")] == ["Personal"]
    app.el("#plan-new-calendar").click()
    app.wait(lambda: path(app) == "/plan/calendars/new" and app.els("#plan-calendar-form"), message="the calendar form")
    assert not save_enabled(app, "#plan-calendar-save"), "no name yet"
    app.el("#plan-calendar-form input[name='name']").send_keys("Lectures")
    app.wait(lambda: save_enabled(app, "#plan-calendar-save"), message="Save enabled with a name")
    assert app.el("#plan-colour-sample").text == "Lectures", "the sample shows the name as typed"

    # A light yellow takes black text; the ratio shown is WCAG's, with the text colour named.
    for key, value in zip("rgb", (255, 235, 59)):
        set_value(app, f"#plan-colour-{key}", str(value))
    sample = app.el("#plan-colour-sample")
    assert sample.value_of_css_property("background-color") == "rgba(255, 235, 59, 1)"
    assert sample.value_of_css_property("color") == "rgba(0, 0, 0, 1)"
    ratio = contrast((255, 235, 59), (0, 0, 0))
    shown = app.el("#plan-contrast").text
    assert f"{math.floor(ratio * 10) / 10:.1f}:1" in shown and "black" in shown, shown
    assert app.el("#plan-colour-hex").text == "#FFEB3B"
    # A light colour hard to see on the page is said so; a dark one is not.
    assert app.el("#plan-contrast-page").is_displayed()
    for key, value in zip("rgb", (20, 40, 120)):
        set_value(app, f"#plan-colour-{key}", str(value))
    assert sample.value_of_css_property("color") == "rgba(255, 255, 255, 1)"
    shown = app.el("#plan-contrast").text
    assert f"{math.floor(contrast((20, 40, 120), (255, 255, 255)) * 10) / 10:.1f}:1" in shown and "white" in shown, shown
    assert not app.el("#plan-contrast-page").is_displayed()
    shot(app, artifacts / "plan-phone-calendar-editor.png")
    app.el("#plan-calendar-save").click()
    app.wait(lambda: path(app) == "/plan/calendars" and "Lectures" in [e.text for e in app.els("#plan-calendar-list .plan-title")],
             message="the new calendar listed")
    _, cals = api(server.url, "GET", "/v1/me/planner/calendars", token=token(app))
    made = next(c for c in cals["calendars"] if c["name"] == "Lectures")
    assert made["colour"].lower() == "#142878" and made["textColour"] == "#ffffff"

    # Rename and recolour it; an empty name is refused next to the field as it is typed.
    app.el(f"#plan-calendar-list li[data-calendar-id='{made['id']}'] a").click()
    name = app.wait(lambda: app.el("#plan-calendar-form input[name='name']"), message="the editor")
    assert name.get_attribute("value") == "Lectures"
    assert app.el("#plan-colour-r").get_attribute("value") == "20"
    name.clear()
    name.send_keys("x")
    name.send_keys("\b")
    app.wait(lambda: field_error(app, "name") == "Give the calendar a name.", message="the name's message")
    assert not save_enabled(app, "#plan-calendar-save")
    name.send_keys("Classes")
    set_value(app, "#plan-colour-r", "200")
    app.wait(lambda: save_enabled(app, "#plan-calendar-save") and field_error(app, "name") == "", message="valid again")
    app.el("#plan-calendar-save").click()
    app.wait(lambda: "Classes" in [e.text for e in app.els("#plan-calendar-list .plan-title")], message="renamed")
    _, cals = api(server.url, "GET", "/v1/me/planner/calendars", token=token(app))
    assert [(c["name"], c["colour"].lower()) for c in cals["calendars"] if c["id"] == made["id"]] == [("Classes", "#c82878")]

    # Deleting asks first (its events go with it); Cancel keeps it.
    app.el(f"#plan-calendar-list li[data-calendar-id='{made['id']}'] a").click()
    app.wait(lambda: app.els("#plan-calendar-delete"), message="the editor")
    app.el("#plan-calendar-delete").click()
    app.dialog("delete-calendar")
    assert "Every event in this calendar is deleted" in app.el("#dialog .dialog-message").text
    app.dialog_action("delete-calendar", "cancel")
    assert len(api(server.url, "GET", "/v1/me/planner/calendars", token=token(app))[1]["calendars"]) == 2
    app.el("#plan-calendar-delete").click()
    app.dialog_action("delete-calendar", "confirm")
    app.wait(lambda: path(app) == "/plan/calendars" and app.js("return document.getElementById('plan-calendar-list')?.dataset.loaded") == "true"
             and [e.text for e in app.els("#plan-calendar-list .plan-title")] == ["Personal"], message="only Personal left")
    # The last calendar cannot be deleted: the editor says so and offers no Delete.
    app.el("#plan-calendar-list li a").click()
    app.wait(lambda: app.els("#plan-calendar-delete"), message="Personal's editor")
    assert not app.el("#plan-calendar-delete").is_enabled()
    assert "only calendar" in app.el("#plan-calendar-form").text
    assert app.console_errors() == []


def test_PLN_2_PLN_3_a_fixed_event_at_a_place_and_a_flexible_one_are_planned_in_order_with_the_trip_between(app, server, artifacts):
    day = in_days(2)
    app.open(f"/plan/day/{day}")
    wait_day(app, day)
    new_event_form(app, day)
    # Checked as the person types: no title, an end before the start.
    assert not save_enabled(app) and "title" in app.el("#plan-save-why").text
    title = app.el("#plan-event-form input[name='title']")
    title.send_keys("Lecture")
    set_value(app, "#plan-event-form input[name='start']", "10:00")
    set_value(app, "#plan-event-form input[name='end']", "09:00")
    app.wait(lambda: field_error(app, "end") == "The end must be after the start.", message="the end's message")
    assert not save_enabled(app)
    set_value(app, "#plan-event-form input[name='start']", "09:00")
    set_value(app, "#plan-event-form input[name='end']", "10:30")
    app.wait(lambda: field_error(app, "end") == "" and save_enabled(app), message="valid times")
    assert app.el("#plan-event-form input[name='date']").get_attribute("value") == day
    choose_place(app, "Leonardo", LEONARDO)
    save_event(app, day)
    assert [s["title"] for s in steps(app) if s["kind"] == "event"] == ["Lecture"]

    # A flexible hour somewhere between 11:00 and 15:00, at the Duomo.
    new_event_form(app, day)
    app.el("#plan-event-form input[name='title']").send_keys("Library study")
    app.el("#plan-event-form input[name='flexible']").click()
    assert app.el("#plan [data-field='start'] label").text == "Earliest start", "a flexible event's window"
    set_value(app, "#plan-event-form input[name='start']", "11:00")
    set_value(app, "#plan-event-form input[name='end']", "15:00")
    set_value(app, "#plan-event-form input[name='duration']", "300")
    app.wait(lambda: "does not fit" in field_error(app, "duration"), message="a length longer than its window")
    assert not save_enabled(app)
    set_value(app, "#plan-event-form input[name='duration']", "60")
    app.wait(lambda: field_error(app, "duration") == "", message="a length that fits")
    choose_place(app, "Duomo", "Duomo di Milano")
    shot(app, artifacts / "plan-phone-event-form.png")
    save_event(app, day)

    # The plan: the lecture, the trip, the flexible hour after it; lunch inside 11:30–14:30.
    events = [s for s in steps(app) if s["kind"] == "event"]
    assert [e["title"] for e in events] == ["Lecture", "Library study"], events
    lecture, study = events
    assert lecture["flexible"] == "false" and study["flexible"] == "true"
    assert lecture["start"] == "09:00" and lecture["end"] == "10:30"
    assert "11:00" <= study["start"] and study["end"] <= "15:00"
    trips = legs(app)
    assert len(trips) == 1, trips
    trip = trips[0]
    assert trip["mode"] in MODE_WORDS and MODE_WORDS[trip["mode"]] in trip["text"], trip
    assert f"{trip['minutes']} min" in trip["text"]
    _, plan = api(server.url, "GET", f"/v1/me/planner/days/{day}?timeZone={urllib.parse.quote(ZONE)}", token=token(app))
    leg = next(s for s in plan["steps"] if s.get("title") == "Library study")["leg"]
    assert (leg["mode"], str(leg["minutes"])) == (trip["mode"], trip["minutes"])
    lunch = [s for s in steps(app) if s["kind"] == "lunch"]
    assert len(lunch) == 1 and "Lunch" in lunch[0]["text"], lunch
    assert "11:30" <= lunch[0]["start"] and lunch[0]["end"] <= "14:30", lunch
    assert app.el("#plan-tab-day").get_attribute("aria-current") == "page"
    data = day_data(app)
    assert data["stops"] == "2" and data["trips"] == trip["mode"], data
    legend = app.el("#plan .plan-legend").text
    assert MODE_WORDS[trip["mode"]] in legend
    shot(app, artifacts / "plan-phone-day.png")

    # The flexible event's detail: every way there, quickest first, the planned one chosen.
    app.el(f"#plan .plan-step[data-event-id='{study['eventId']}'] a").click()
    app.wait(lambda: app.js("return document.querySelector('.plan-event-screen')?.dataset.loaded") == "true", message="the event")
    assert app.el("#plan-event-title").text == "Library study"
    assert "Flexible: 1 h" in app.el("#plan .plan-event-head").text
    options = app.js("return [...document.querySelectorAll('.plan-option')].map(b => ({mode: b.dataset.mode, pressed: b.getAttribute('aria-pressed'), text: b.innerText}))")
    assert options and [o["mode"] for o in options if o["pressed"] == "true"] == [trip["mode"]], options
    for o in options:
        assert MODE_WORDS[o["mode"]] in o["text"] and "min" in o["text"]
    if len(options) > 1:
        other = next(o for o in options if o["pressed"] != "true")
        app.el(f".plan-option[data-mode='{other['mode']}']").click()
        app.wait(lambda: app.el(f".plan-option[data-mode='{other['mode']}']").get_attribute("aria-pressed") == "true", message="another way chosen")
    shot(app, artifacts / "plan-phone-event.png")
    assert app.console_errors() == []


def test_PLN_5_an_event_that_cannot_be_reached_in_time_is_said_at_once_and_marked_red_with_why(app, server, artifacts):
    day = in_days(3)
    app.open(f"/plan/day/{day}")
    wait_day(app, day)
    leonardo = next(p for p in api(server.url, "GET", "/v1/planner/places?q=Leonardo")[1]["places"] if p["name"] == LEONARDO)
    add_event(server, token(app), title="Seminar", start=f"{day}T14:00", end=f"{day}T15:00", modes=["walk"],
              place={k: leonardo[k] for k in ("name", "latitude", "longitude")})
    new_event_form(app, day)
    app.el("#plan-event-form input[name='title']").send_keys("Lab")
    set_value(app, "#plan-event-form input[name='start']", "15:05")
    set_value(app, "#plan-event-form input[name='end']", "16:00")
    # Walking only: with every way unticked the form asks for one.
    for mode in MODE_WORDS:
        app.el(f"#plan-event-form input[name='modes'][value='{mode}']").click()
    app.wait(lambda: field_error(app, "modes") == "Choose at least one way to get there.", message="the modes' message")
    assert not save_enabled(app)
    app.el("#plan-event-form input[name='modes'][value='walk']").click()
    choose_place(app, "Bovisa La Masa", BOVISA)
    save_event(app, day)

    banner = app.wait(lambda: app.el("#plan-warnings") if app.el("#plan-warnings").is_displayed() else None, message="the warning banner")
    assert "Lab" in banner.text and "cannot be reached" in banner.text, banner.text
    assert banner.get_attribute("role") == "alert"
    lab = next(s for s in steps(app) if s["kind"] == "event" and s["title"] == "Lab")
    assert lab["arrival"] in ("late", "unreachable"), lab
    state = app.el(f"#plan .plan-step[data-event-id='{lab['eventId']}'] .plan-state")
    assert state.text in ("Cannot be reached",) or state.text.startswith("Late"), state.text
    assert state.value_of_css_property("color") == "rgba(179, 38, 30, 1)", "the red text colour"
    link = app.el(f"#plan .plan-step[data-event-id='{lab['eventId']}'] a")
    assert link.value_of_css_property("border-left-color") == "rgba(207, 51, 41, 1)", "a red edge"
    why = app.el(f"#plan .plan-step[data-event-id='{lab['eventId']}'] .plan-why.trouble").text
    _, plan = api(server.url, "GET", f"/v1/me/planner/days/{day}?timeZone={urllib.parse.quote(ZONE)}", token=token(app))
    assert why and why == next(s for s in plan["steps"] if s.get("eventId") == lab["eventId"])["why"]
    seminar = next(s for s in steps(app) if s["kind"] == "event" and s["title"] == "Seminar")
    assert seminar["arrival"] == "onTime"
    assert "cannot reach in time" in app.el("#plan .plan-status").text
    shot(app, artifacts / "plan-phone-warning.png")
    app.el("#plan-warnings-close").click()
    app.wait(lambda: not app.el("#plan-warnings").is_displayed(), message="the banner dismissed")

    # The same warning waits in the inbox, and leads back to the day.
    app.open("/me/inbox")

    def opened_notice():
        # The inbox may be drawn again (live news, marking read) between two steps, and may hold
        # other notices about the plan: each try looks every one up afresh, opens those that are
        # closed, and reads the one about "Lab" once it is open.
        for item in app.els("[data-testid=inbox] .inbox-item"):
            if "Check your plan" not in item.text:
                continue
            body = item.find_element("css selector", ".inbox-body")
            if not body.is_displayed():
                # Clicked on the element itself: a pointer click at its place can land on the
                # button below it ("Sign in to watch lots") when the list is drawn again meanwhile.
                app.d.execute_script("arguments[0].click()", item.find_element("css selector", ".inbox-open"))
            elif "Lab" in body.text:
                return body
        return None

    try:
        body = app.wait(opened_notice, timeout=20, message="the plan's notice in the inbox, open")
    except AssertionError:
        shot(app, artifacts / "plan-inbox-notice-missing.png")
        raise
    assert "cannot be reached" in body.text, body.text
    app.wait(lambda: (b := opened_notice()) is not None
             and (app.d.execute_script("arguments[0].click()", b.find_element("css selector", "a.inbox-link")) or True),
             message="the link to the day")
    app.wait(lambda: app.d.execute_script("return location.pathname") == f"/plan/day/{day}", message="the day from the inbox")
    wait_day(app, day)
    assert app.console_errors() == []


def next_weekday(after_days: int) -> str:
    """The first Monday to Thursday at least `after_days` away: a day the demo timetable runs its weekday service."""
    d = datetime.now(ZoneInfo(ZONE)).date() + timedelta(days=after_days)
    while d.weekday() > 3:
        d += timedelta(days=1)
    return d.isoformat()


def test_PLN_5_a_transit_leg_names_its_lines_the_first_ride_and_each_step_on_phone_and_desktop(app, server, artifacts):
    day = next_weekday(2)
    app.open(f"/plan/day/{day}")
    wait_day(app, day)
    places = {p["name"]: p for p in api(server.url, "GET", "/v1/planner/places?q=Politecnico&limit=20")[1]["places"]}
    at = lambda n: {k: places[n][k] for k in ("name", "latitude", "longitude")}  # noqa: E731
    add_event(server, token(app), title="Lecture", start=f"{day}T08:00", end=f"{day}T09:00", place=at(LEONARDO), modes=["walk", "transit"])
    lab = add_event(server, token(app), title="Lab", start=f"{day}T10:00", end=f"{day}T12:00", place=at(BOVISA), modes=["walk", "transit"])
    app.open(f"/plan/day/{day}")
    wait_day(app, day)
    leg = app.wait(lambda: next((l for l in legs(app) if l["mode"] == "transit"), None), message="the transit leg")
    _, plan = api(server.url, "GET", f"/v1/me/planner/days/{day}?timeZone={urllib.parse.quote(ZONE)}", token=token(app))
    journey = next(s for s in plan["steps"] if s.get("title") == "Lab")["leg"]["journey"]
    rides = [l for l in journey["legs"] if l["kind"] == "ride"]
    assert rides, journey
    # "Public transport · 31 min · M2 · S2", then when to leave and the first ride in words.
    assert " · ".join(r["route"]["name"] for r in rides) in leg["text"], leg["text"]
    assert f"from {rides[0]['from']['name']} at " in leg["text"], leg["text"]
    assert "T0" not in leg["text"] and "Z" not in leg["text"].replace("Zone", ""), "no raw timestamps"
    shot(app, artifacts / "plan-phone-transit-day.png")

    event_id = (lab.get("event") or lab)["id"]
    app.open(f"/plan/event/{urllib.parse.quote(event_id)}/{day}")
    app.wait(lambda: app.els("#plan .plan-journey li[data-kind='ride']"), timeout=15, message="the journey step by step")
    items = app.js("return [...document.querySelectorAll('#plan .plan-journey li')].map(li => ({...li.dataset, text: li.innerText}))")
    assert [i["kind"] for i in items] == [l["kind"] for l in journey["legs"]], items
    first = next(i for i in items if i["kind"] == "ride")
    assert first["line"] == rides[0]["route"]["name"] and f"from {rides[0]['from']['name']}" in first["text"], first
    assert "get off at " + rides[0]["to"]["name"] in first["text"], first
    badge = app.el("#plan .plan-journey li[data-kind='ride'] .plan-line-badge")
    colour = rides[0]["route"].get("colour")
    if colour:
        r, g, b = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
        assert badge.value_of_css_property("background-color") == f"rgba({r}, {g}, {b}, 1)", "the line's own colour"
    text = app.el("#plan").text
    assert "T0" not in text and "undefined" not in text and "null" not in text, text
    shot(app, artifacts / "plan-phone-transit-event.png")
    app.d.set_window_size(1280, 800)
    app.open(f"/plan/event/{urllib.parse.quote(event_id)}/{day}")
    app.wait(lambda: app.els("#plan .plan-journey li[data-kind='ride']"), timeout=15, message="the journey on a wide screen")
    shot(app, artifacts / "plan-desktop-transit-event.png")
    assert app.console_errors() == []


def test_PLN_3_today_is_split_into_earlier_upcoming_in_two_hours_and_later(driver, server, artifacts):
    """Today's plan: what is over, what comes within two hours ("Upcoming") and "Later". The
    browser is put in a fixed-offset zone where it is about 10:00 now, so the test means the same
    at any hour it runs."""
    now = datetime.now(timezone.utc).replace(second=0, microsecond=0)
    offset = (10 - now.hour) % 24
    offset = offset - 24 if offset > 14 else offset
    zone = "Etc/GMT" if offset == 0 else f"Etc/GMT{'-' if offset > 0 else '+'}{abs(offset)}"  # IANA's signs are inverted
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
    app = App(driver, server.url)
    app.open("/plan")
    local = now.astimezone(timezone(timedelta(hours=offset)))
    day = local.date().isoformat()
    wait_day(app, day)
    wall = lambda t: t.strftime("%Y-%m-%dT%H:%M")
    for title, start, minutes in [("Breakfast meeting", local - timedelta(hours=2), 30), ("Seminar", local + timedelta(minutes=30), 60),
                                  ("Dinner", local + timedelta(hours=4), 90)]:
        status, body = api(server.url, "POST", "/v1/me/planner/events", {
            "title": title, "start": wall(start), "end": wall(start + timedelta(minutes=minutes)), "timeZone": zone}, token=token(app))
        assert status == 201, body
    app.open(f"/plan/day/{day}")
    wait_day(app, day)
    sections = app.js("return [...document.querySelectorAll('#plan .plan-section')].map(s => [s.dataset.section,"
                      " [...s.querySelectorAll('.plan-step')].map(e => e.querySelector('h4, .plan-title')?.textContent || e.textContent)])")
    keys = [k for k, _ in sections]
    assert keys == ["earlier", "upcoming", "later"], sections
    assert "Breakfast meeting" in " ".join(sections[0][1])
    assert "Seminar" in " ".join(sections[1][1]) and "Dinner" not in " ".join(sections[1][1])
    assert "Dinner" in " ".join(sections[2][1])
    assert [h.get_attribute("textContent") for h in app.els("#plan .plan-subheading")] == ["Earlier today", "Upcoming", "Later"]
    shot(app, artifacts / "plan-phone-today.png")
    assert app.console_errors() == []


def test_PLN_3_the_week_lists_each_days_events_and_earlier_days_show_no_travel(app, server, artifacts):
    app.open("/plan")
    wait_day(app, in_days(0))
    tok = token(app)
    day = in_days(2)
    weekday = date.fromisoformat(day).isoweekday() % 7 + 1  # the API's 1 = Sunday
    add_event(server, tok, title="Weekly seminar", start=f"{day}T16:00", end=f"{day}T17:30",
              repeat={"weekdays": [weekday], "count": 3})
    add_event(server, tok, title="Team meeting", start=f"{day}T10:00", end=f"{day}T11:00")
    # Yesterday's events at two places: a past day shows where they were and no trip between.
    yesterday = in_days(-1)
    places = {p["name"]: p for p in api(server.url, "GET", "/v1/planner/places?q=Politecnico&limit=20")[1]["places"]}
    for title, name, start, end in (("Morning class", LEONARDO, "09:00", "10:00"), ("Afternoon lab", BOVISA, "14:00", "15:00")):
        p = places[name]
        add_event(server, tok, title=title, start=f"{yesterday}T{start}", end=f"{yesterday}T{end}",
                  place={"name": p["name"], "latitude": p["latitude"], "longitude": p["longitude"]})

    def week() -> dict:
        app.wait(lambda: app.js("return document.querySelector('#plan .plan-week')?.dataset.loaded") == "true", message="the week")
        return {d["day"]: d["titles"] for d in app.js(
            "return [...document.querySelectorAll('#plan .plan-week-day')].map(d => ({day: d.dataset.day,"
            " titles: [...d.querySelectorAll('.plan-title')].map(t => t.textContent)}))")}

    # This week, from the tab: seven days from the locale's first, today marked.
    app.el("#plan-tab-week").click()
    app.wait(lambda: path(app) == "/plan/week", message="the week's path")
    days = week()
    assert len(days) == 7 and in_days(0) in days
    assert app.el(f"#plan .plan-week-day[data-day='{in_days(0)}']").get_attribute("class").split() == ["plan-week-day", "today"]
    # The week holding the day: both events under it, by start, the repeat said.
    app.open(f"/plan/week/{day}")
    days = week()
    assert days[day] == ["Team meeting", "Weekly seminar"], days
    assert all(titles == [] for d, titles in days.items() if d not in (day, yesterday)), days
    seminar = app.els(f"#plan .plan-week-day[data-day='{day}'] .plan-occ")[1]
    assert "Repeats" in seminar.text and ("4:00" in seminar.text or "16:00" in seminar.text), seminar.text
    shot(app, artifacts / "plan-phone-week.png")
    # The next week holds the repeat's second time, and nothing else.
    this_week = app.js("return document.querySelector('#plan .plan-week').dataset.from")
    app.el("#plan .plan-day-head a[aria-label^='Next week']").click()
    app.wait(lambda: path(app) == f"/plan/week/{(date.fromisoformat(this_week) + timedelta(days=7)).isoformat()}", message="next week's path")
    days = week()
    later = (date.fromisoformat(day) + timedelta(days=7)).isoformat()
    assert days[later] == ["Weekly seminar"] and sum(len(t) for t in days.values()) == 1, days

    # Yesterday, reached a day back from today: its events, no travel, the map still showing them.
    app.el("#plan-tab-day").click()
    wait_day(app, in_days(0))
    app.el("#plan .plan-day-head a[aria-label^='Previous day']").click()
    wait_day(app, yesterday)
    data = day_data(app)
    assert data["past"] == "true" and data["events"] == "2" and data["stops"] == "2" and data["trips"] == "", data
    assert legs(app) == [] and not app.els("#plan .plan-state")
    assert "travel is not shown" in app.el("#plan .plan-note").text
    shot(app, artifacts / "plan-phone-past-day.png")
    assert app.console_errors() == []


def test_PLN_3_on_a_wide_screen_the_plan_sits_beside_the_map(server, artifacts):
    d = make_driver(1280, 800, 1, False)
    try:
        in_milan(d)
        app = App(d, server.url)
        day = in_days(4)
        app.open(f"/plan/day/{day}")
        wait_day(app, day)
        tok = token(app)
        places = {p["name"]: p for p in api(server.url, "GET", "/v1/planner/places?q=Politecnico&limit=20")[1]["places"]}
        at = lambda n: {k: places[n][k] for k in ("name", "latitude", "longitude")}  # noqa: E731
        add_event(server, tok, title="Design review", start=f"{day}T09:30", end=f"{day}T10:30", place=at(LEONARDO))
        add_event(server, tok, title="Workshop", start=f"{day}T15:00", end=f"{day}T17:00", place=at(BOVISA))
        add_event(server, tok, title="Reading", start=f"{day}T10:30", end=f"{day}T14:00", durationMinutes=45, place=at(LEONARDO))
        app.open(f"/plan/day/{day}")
        wait_day(app, day)
        rail, sheet = app.el("nav#areas").rect, app.el("#plan").rect
        assert sheet["x"] >= rail["x"] + rail["width"] and 400 <= sheet["width"] <= 480, sheet
        assert sheet["height"] >= 800 - 40, "the list uses the whole height"
        events = [s for s in steps(app) if s["kind"] == "event"]
        assert [e["title"] for e in events] == ["Design review", "Reading", "Workshop"], events
        # The day's places are in the part of the map beside the list.
        app.wait(lambda: all(app.js("return window.waymark.map.project(arguments[0])", {"lat": p["latitude"], "lon": p["longitude"]})["x"]
                             > sheet["x"] + sheet["width"] - rail["width"] for p in (places[LEONARDO], places[BOVISA])),
                 message="the stops beside the sheet")
        shot(app, artifacts / "plan-desktop-day.png")
        app.el("#plan-tab-week").click()
        app.wait(lambda: path(app) == "/plan/week", message="the week")
        app.open(f"/plan/week/{day}")
        app.wait(lambda: app.js("return document.querySelector('#plan .plan-week')?.dataset.loaded") == "true", message="the week")
        assert [e.text for e in app.els(f"#plan .plan-week-day[data-day='{day}'] .plan-title")] == ["Design review", "Reading", "Workshop"]
        shot(app, artifacts / "plan-desktop-week.png")
        app.open(f"/plan/new/{day}")
        app.wait(lambda: app.els("#plan-event-form"), message="the event form")
        shot(app, artifacts / "plan-desktop-event-form.png")
        app.open("/plan/calendars/new")
        app.wait(lambda: app.els("#plan-calendar-form"), message="the calendar form")
        shot(app, artifacts / "plan-desktop-calendar-editor.png")
        app.open("/plan/travel")
        form = app.wait(lambda: app.els("#plan-preferences-form"), message="the travel preferences")[0]
        assert "Eco mode" in form.text and "Lunch" in form.text
        shot(app, artifacts / "plan-desktop-travel.png")
        assert app.console_errors() == []
    finally:
        d.quit()


def test_PLN_4_travel_preferences_are_checked_as_typed_and_saved(app, server):
    app.open("/plan/travel")
    form = app.wait(lambda: app.els("#plan-preferences-form"), message="the travel preferences")[0]
    assert form.find_element(By.CSS_SELECTOR, "input[name='lunch']").is_selected(), "lunch is kept by default"
    set_value(app, "#plan-preferences-form input[name='lunchTo']", "11:45")
    app.wait(lambda: "at least 30 min" in field_error(app, "lunchTo"), message="a lunch window too short")
    assert not save_enabled(app, "#plan-preferences-save")
    set_value(app, "#plan-preferences-form input[name='lunchTo']", "13:30")
    app.el("#plan-preferences-form input[name='ecoMode']").click()
    app.el("#plan-preferences-form input[name='ownsBike']").click()
    app.wait(lambda: save_enabled(app, "#plan-preferences-save"), message="valid again")
    app.el("#plan-preferences-save").click()
    app.wait(lambda: api(server.url, "GET", "/v1/me/planner/preferences", token=token(app))[1].get("lunchTo") == "13:30",
             message="saved")
    saved = api(server.url, "GET", "/v1/me/planner/preferences", token=token(app))[1]
    # What the person did not touch is saved as it was (a limit shown rounded is not rounded).
    assert saved["ecoMode"] is True and saved["ownsBike"] is True and saved["maxWalkingMetres"] == 2000, json.dumps(saved)
    assert saved["lunchFrom"] == "11:30" and saved["transitTo"] == "24:00"
