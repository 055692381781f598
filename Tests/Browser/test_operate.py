"""Operating a site in the web app (PRK-1: operators of a site run its lots). A person granted
a site with `waymark operator grant … --site` finds Operate in the Accounts menu; there they
change a lot's settings (drivers see them at once, and a setting the server refuses is shown
in its words with the input kept), close and open spots, grant the role to another account
and end it, read the record of changes at the site's local time, and see which sensors report
and which need a visit. A person who runs no site has no such entry. One server and one browser
serve the whole module."""
from __future__ import annotations

import pathlib
import re
import secrets
import shutil
import subprocess
import tempfile
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import WaymarkServer, make_driver
from helpers import App, Accounts, api, new_account, use_session

PASSWORD = "Parking#2026"


@pytest.fixture(scope="module")
def site_server():
    """Its own server: operators are granted in its database and lots changed."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-operate-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    d = make_driver()
    yield d
    d.quit()


@pytest.fixture(scope="module")
def operator(site_server) -> dict:
    """An account that runs the demo site, granted on the command line."""
    session = new_account(site_server.url, "ops", PASSWORD, email=f"ops{secrets.token_hex(3)}@example.com")
    out = subprocess.run([str(site_server.binary), "operator", "grant", session["user"]["email"], "--site", site_server.site["code"],
                          "--database", str(site_server.database)], cwd=site_server.workdir, capture_output=True, text=True, env=site_server.env)
    assert out.returncode == 0, out.stderr
    return session


def signed_in(browser, site_server, session: dict, path: str) -> App:
    """The browser as `session`'s person, showing `path`."""
    app = App(browser, site_server.url)
    browser.get(site_server.url + "/")
    app.wait_ready()
    app.js("localStorage.clear()")
    use_session(app, session)
    return app.open(path)


def open_operate(app: App, tab: str = "lots") -> Accounts:
    acc = Accounts(app)
    acc.wait_view("operate")
    app.wait(lambda: app.el('[data-testid="op-site"]').text, message="the site's name")
    if app.el(f'#op-tab-{tab}').get_attribute("aria-selected") != "true":
        app.el(f'#op-tab-{tab}').click()
    app.wait(lambda: app.el(f'#op-tab-{tab}').get_attribute("aria-selected") == "true", message=f"the {tab} tab")
    return acc


def choose_lot(app: App, pane: str, lot_id: str) -> None:
    Select(app.el(f'#op-pane-{pane} select[name="lot"]')).select_by_value(lot_id)


def lot_form_for(app: App, lot_id: str):
    """Waits for the settings form of the lot and returns its hourly price input."""
    app.wait(lambda: app.el('#op-pane-lots select[name="lot"]').get_attribute("value") == lot_id
             and app.els('form[data-form="lot-settings"] [name="hourly"]'), message="the lot's settings form")
    return app.el('form[data-form="lot-settings"] [name="hourly"]')


def type_into(element, text: str) -> None:
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(Keys.DELETE)
    element.send_keys(text)


def menu_item_shown(app: App, action: str) -> bool:
    return app.js("const b = document.querySelector(`#accounts button[data-action='${arguments[0]}']`);"
                  "return !!b && b.offsetParent !== null", action)


def fits_the_phone(app: App) -> bool:
    return app.js("const b = document.getElementById('accounts-body');"
                  "return document.documentElement.scrollWidth <= innerWidth && b.scrollWidth <= b.clientWidth")


def test_prk1_a_person_who_runs_no_site_has_no_operate_entry(browser, site_server, operator):
    member = new_account(site_server.url, "driver", PASSWORD)
    status, answer = api(site_server.url, "GET", "/v1/me/operated-sites", token=member["token"])
    assert status == 200 and answer["sites"] == [], answer
    app = signed_in(browser, site_server, member, "/me")
    Accounts(app).wait_view("account")
    app.wait(lambda: menu_item_shown(app, "wallet"), message="the member's menu")
    # The menu has heard the server's answer (none) before the entry's absence counts.
    app.wait(lambda: app.js("return performance.getEntriesByType('resource').some((e) => e.name.endsWith('/v1/me/operated-sites'))"),
             message="the sites the member runs")
    app.frame()
    assert not menu_item_shown(app, "operate")
    # A shared link to the screen says what is missing instead of showing an empty console.
    app.open("/me/operate")
    Accounts(app).wait_view("operate")
    app.wait(lambda: "don’t run any site" in app.el("#accounts-body").text, message="the no-site note")
    assert not app.el(".op-tabs").is_displayed()

    # The operator has the entry, and it leads to the site's console.
    app = signed_in(browser, site_server, operator, "/me")
    Accounts(app).wait_view("account")
    app.wait(lambda: menu_item_shown(app, "operate"), message="Operate in the operator's menu")
    Accounts(app).menu("operate")
    open_operate(app)
    assert app.el('[data-testid="op-site"]').text == site_server.site["name"]
    assert app.js("return location.pathname") == "/me/operate"
    assert not app.console_errors()


def test_prk1_an_operator_changes_the_hourly_price_and_drivers_see_it(browser, site_server, operator, artifacts):
    lot = site_server.lot("D")
    status, settings = api(site_server.url, "GET", f"/v1/lots/{lot['id']}/settings", token=operator["token"])
    assert status == 200, settings
    new_hourly = "1.75" if settings["price"]["hourly"] != "1.75" else "1.50"
    assert float(new_hourly) <= float(settings["price"]["dailyMax"])

    app = signed_in(browser, site_server, operator, "/me/operate")
    open_operate(app)
    choose_lot(app, "lots", lot["id"])
    hourly = lot_form_for(app, lot["id"])
    assert hourly.get_attribute("value") == settings["price"]["hourly"]
    assert "(USD)" in app.el('form[data-form="lot-settings"] [data-part="price"] legend').text
    type_into(hourly, new_hourly)
    app.wait(lambda: app.el('[data-testid="op-save-status"]').text == "Unsaved changes", message="unsaved changes")
    app.el('form[data-form="lot-settings"] button[type="submit"]').click()
    app.wait(lambda: app.el('[data-testid="op-save-status"]').text == "Saved. Drivers see it now.", message="saved")
    assert fits_the_phone(app)
    app.screenshot(artifacts / "operate-lot-saved.png")

    # Drivers: the API and the lot's card say the new price.
    status, now = api(site_server.url, "GET", f"/v1/lots/{lot['id']}")
    assert status == 200 and now["price"]["hourlyCents"] == round(float(new_hourly) * 100), now["price"]
    app.open("/")
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: f"${new_hourly} per hour" in app.el("#lot-card").get_attribute("textContent"), message="the new price on the lot card")
    assert not app.console_errors()


def test_prk1_a_broken_setting_shows_the_servers_words_and_keeps_the_input(browser, site_server, operator):
    lot = site_server.lot("E")
    app = signed_in(browser, site_server, operator, "/me/operate")
    open_operate(app)
    choose_lot(app, "lots", lot["id"])
    hourly = lot_form_for(app, lot["id"])
    daily = app.el('form[data-form="lot-settings"] [name="dailyMax"]')
    type_into(hourly, "9.00")
    type_into(daily, "5.00")
    app.el('form[data-form="lot-settings"] button[type="submit"]').click()
    error = Accounts(app).error("lot-settings")

    # The words are the server's own for the same settings.
    _, settings = api(site_server.url, "GET", f"/v1/lots/{lot['id']}/settings", token=operator["token"])
    broken = {**settings, "price": {**settings["price"], "hourly": "9.00", "dailyMax": "5.00"}}
    status, problem = api(site_server.url, "PUT", f"/v1/lots/{lot['id']}/settings", broken, token=operator["token"])
    assert status == 400 and problem["type"].endswith("/lot-settings-invalid"), problem
    assert error == problem["detail"], (error, problem["detail"])
    assert hourly.get_attribute("value") == "9.00" and daily.get_attribute("value") == "5.00"
    assert app.el('[data-testid="op-save-status"]').text != "Saved. Drivers see it now."
    assert api(site_server.url, "GET", f"/v1/lots/{lot['id']}")[1]["price"]["dailyMaxCents"] != 500
    assert fits_the_phone(app)
    # The browser notes the refused request itself; nothing else went wrong.
    assert all("/settings" in e and "400" in e for e in app.console_errors())


def test_prk1_an_operator_closes_a_spot_and_opens_it_again(browser, site_server, operator):
    lot = site_server.lot("A")
    spot = next(s for s in site_server.spots(lot["id"]) if s["label"] == "12")
    app = signed_in(browser, site_server, operator, "/me/operate")
    open_operate(app)
    # The tabs follow the arrow keys, as a tab list does.
    app.el("#op-tab-lots").send_keys(Keys.ARROW_RIGHT)
    app.wait(lambda: app.el("#op-tab-spots").get_attribute("aria-selected") == "true", message="the Spots tab by keyboard")
    assert app.js("return document.activeElement.id") == "op-tab-spots"
    assert app.js("return location.pathname") == "/me/operate/spots"
    choose_lot(app, "spots", lot["id"])
    app.wait(lambda: app.els('#op-pane-spots datalist option[value="950"]'), message="the lot's spot labels")
    app.audit()

    find = app.el('form[data-form="find-spot"] [name="spot"]')
    type_into(find, "12")
    card = '[data-testid="op-spot"]'
    app.wait(lambda: app.el(card).is_displayed() and "Spot 12" in app.el(card).text, message="spot 12")
    assert app.el('[data-testid="op-spot-state"]').text in {"Free", "Taken", "Unknown", "Booked"}
    app.el(f'{card} [data-action="close-spot"]').click()
    app.wait(lambda: app.el('[data-testid="op-spot-state"]').text == "Closed", message="closed")
    assert site_server.states(lot["id"])[spot["ordinal"]] == "c"
    closed = '[data-testid="op-closed-spots"] li[data-label="12"]'
    app.wait(lambda: app.els(closed), message="spot 12 among the closed spots")
    assert fits_the_phone(app)

    app.el(f'{closed} [data-action="open-spot"]').click()
    app.wait(lambda: not app.els(closed), message="spot 12 open again")
    assert app.el('[data-testid="op-spot-state"]').text != "Closed"
    assert site_server.states(lot["id"])[spot["ordinal"]] != "c"
    assert not app.console_errors()


def test_prk1_an_operator_grants_another_account_and_ends_the_role(browser, site_server, operator):
    colleague = new_account(site_server.url, "mate", PASSWORD)
    name = colleague["user"]["username"]
    app = signed_in(browser, site_server, operator, "/me/operate/operators")
    acc = open_operate(app, "operators")
    app.wait(lambda: app.els(f'[data-testid="op-operators"] li[data-name="{operator["user"]["username"]}"]'), message="the operator listed")
    app.audit()

    # An account that does not exist: the server's words.
    acc.fill("grant-operator", login="nobody-" + secrets.token_hex(3))
    acc.submit("grant-operator")
    assert "No account has the username or email address" in acc.error("grant-operator")
    assert all("/operators" in e and "404" in e for e in app.console_errors())

    acc.fill("grant-operator", login=name)
    acc.submit("grant-operator")
    row = f'[data-testid="op-operators"] li[data-name="{name}"]'
    app.wait(lambda: app.els(row), message="the colleague listed")
    assert f"Granted by {operator['user']['username']} on " in app.el(row).text
    status, listed = api(site_server.url, "GET", f"/v1/sites/{site_server.site['id']}/operators", token=operator["token"])
    assert status == 200 and name in [o["name"] for o in listed["operators"]], listed
    status, sites = api(site_server.url, "GET", "/v1/me/operated-sites", token=colleague["token"])
    assert [s["id"] for s in sites["sites"]] == [site_server.site["id"]]

    app.el(f'{row} [data-action="end-role"]').click()
    app.dialog_action("end-role", "confirm")
    app.wait(lambda: not app.els(row), message="the colleague no longer listed")
    assert api(site_server.url, "GET", "/v1/me/operated-sites", token=colleague["token"])[1]["sites"] == []
    assert fits_the_phone(app)
    assert not app.console_errors()


def test_prk1_the_changes_show_who_and_when_at_the_sites_time(browser, site_server, operator):
    lot = site_server.lot("F")
    _, settings = api(site_server.url, "GET", f"/v1/lots/{lot['id']}/settings", token=operator["token"])
    changed = {**settings, "rules": [*settings.get("rules", []), f"Event parking {secrets.token_hex(2)}"][:10]}
    status, _ = api(site_server.url, "PUT", f"/v1/lots/{lot['id']}/settings", changed, token=operator["token"])
    assert status == 200
    _, changes = api(site_server.url, "GET", f"/v1/sites/{site_server.site['id']}/changes?limit=5", token=operator["token"])
    change = changes["changes"][0]
    assert change["summary"] == f"Changed the rules of {lot['name']}", change

    app = signed_in(browser, site_server, operator, "/me/operate/changes")
    open_operate(app, "changes")
    item = '[data-testid="op-changes"] li'
    app.wait(lambda: app.els(item), message="the changes")
    app.audit()
    first = " ".join(app.el(item).text.split())
    # The time is the site's wall clock (the browser runs in another zone), in the person's locale.
    at = datetime.fromisoformat(change["at"].replace("Z", "+00:00")).astimezone(ZoneInfo(site_server.site["timeZone"]))
    clock = f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
    assert first.replace("\u202f", " ") == f"{change['summary']} by {operator['user']['username']} · {clock}", first
    text = app.el('[data-testid="op-changes"]').text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T|\d{2}:\d{2}:\d{2}", text), text
    assert change["id"] not in text and "lotSettings" not in text
    # Grouped by the site's day: a change made just now is today's there.
    today = datetime.now(ZoneInfo(site_server.site["timeZone"])).date()
    assert app.el('[data-testid="op-changes"] h4').get_attribute("textContent") == ("Today" if at.date() == today else "Yesterday")
    assert fits_the_phone(app)
    assert not app.console_errors()


def report_events(site_server, key: str, events: list[dict]) -> dict:
    """Sends sensor reports as a gateway would; each event gets a fresh sequence number."""
    for e in events:
        site_server.sequence += 1
        e.setdefault("sequence", site_server.sequence)
    status, result = api(site_server.url, "POST", "/v1/gateway/events", {"events": events}, token=key)
    assert status == 200 and result["accepted"] == len(events), result
    return result


def next_sequence(site_server) -> int:
    site_server.sequence += 1
    return site_server.sequence


def utc_iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def words(element) -> str:
    return " ".join(element.text.split()).replace("\u202f", " ")


def test_prk1_the_sensors_tab_shows_which_sensors_report_and_which_need_a_visit(browser, site_server, operator):
    site = site_server.site
    health = f"/v1/sites/{site['id']}/sensor-health"
    status, before = api(site_server.url, "GET", health, token=operator["token"])
    assert status == 200 and before["gateways"] == [] and before["attentionCount"] == 0, "nothing in this module reports before"
    lot = site_server.lot("NPS")
    spots = site_server.spots(lot["id"])
    healthy, quiet = [s for s in spots if s["level"] == 0][:2]
    weak = next(s for s in spots if s["level"] == 1)
    gateway = f"Nutwood roof {secrets.token_hex(2)}"
    key = site_server.gateway_key(gateway)

    # Reached by the arrow keys from Changes, at a path of its own; no gateway has reported yet.
    app = signed_in(browser, site_server, operator, "/me/operate/changes")
    open_operate(app, "changes")
    app.el("#op-tab-changes").send_keys(Keys.ARROW_RIGHT)
    app.wait(lambda: app.el("#op-tab-sensors").get_attribute("aria-selected") == "true", message="the Sensors tab by keyboard")
    assert app.js("return document.activeElement.id") == "op-tab-sensors"
    assert app.js("return location.pathname") == "/me/operate/sensors"
    pane = "#op-pane-sensors"
    app.wait(lambda: "No gateway has reported for this site in the last 24 hours" in app.el(pane).text, message="no gateway traffic")
    assert "No sensor has reported yet" in app.el(pane).text

    # A healthy report: nothing needs attention, the gateway shows its one report.
    now = datetime.now(timezone.utc)
    report_events(site_server, key, [{"sensorId": healthy["sensorId"], "occupied": False, "observedAt": utc_iso(now),
                                      "battery": 80, "rssi": -90.0, "snr": 7.5}])
    app.el('[data-action="refresh-sensors"]').click()
    app.wait(lambda: "Every sensor that has reported is healthy" in app.el(pane).text, message="the healthy note")
    row = f'[data-testid="op-sensor-gateways"] li[data-name="{gateway}"]'
    assert "Last 24 hours 1 report · 0 rejected" in words(app.el(row))

    # One sensor low and weakly heard, another quiet for two hours (silent, listed first).
    quiet_at = now - timedelta(hours=2)
    report_events(site_server, key, [
        {"sensorId": weak["sensorId"], "occupied": True, "observedAt": utc_iso(datetime.now(timezone.utc)), "battery": 12, "rssi": -124.5, "snr": -13},
        {"sensorId": quiet["sensorId"], "occupied": True, "observedAt": utc_iso(quiet_at)}])
    status, after = api(site_server.url, "GET", health, token=operator["token"])
    assert status == 200 and [a["spotId"] for a in after["attention"]] == [quiet["id"], weak["id"]], after["attention"]
    app.el('[data-action="refresh-sensors"]').click()
    listed = '[data-testid="op-sensor-attention"] > li'
    app.wait(lambda: len(app.els(listed)) == 2, message="two sensors that need attention")
    app.audit()

    low = words(app.el(f'{listed}[data-spot="{weak["id"]}"]'))
    assert low.startswith(f"Spot {weak['label']} {lot['name']} · Level 2"), low
    assert "Battery 12 %" in low and "Weak signal: -125 dBm, SNR -13 dB" in low, low
    # Silent since the site's wall clock time (the browser runs in another zone).
    at = quiet_at.astimezone(ZoneInfo(site["timeZone"]))
    clock = f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
    day = "" if at.date() == datetime.now(ZoneInfo(site["timeZone"])).date() else "yesterday "
    first = words(app.el(listed))
    assert first == f"Spot {quiet['label']} {lot['name']} · Ground level Silent since {day}{clock}", first

    totals = after["totals"]
    assert (totals["reporting"], totals["silent"], totals["lowBattery"], totals["weakSignal"]) == (2, 1, 1, 1), totals
    assert words(app.el('[data-testid="op-sensor-reporting"]')) == f"2 of {totals['sensors']:,} sensors reporting"
    assert words(app.el('[data-testid="op-sensor-summary"] li[data-figure="battery"]')) == "1 Low battery"
    assert "Silent: no report for over 1 hour 30 minutes; drivers see the spot as unknown." in app.el(pane).text
    lot_health = next(l for l in after["lots"] if l["lotId"] == lot["id"])
    lot_row = words(app.el(f'[data-testid="op-sensor-lots"] li[data-lot="{lot["id"]}"]'))
    assert lot_row.startswith(f"{lot['name']} 2 of {lot_health['sensors']:,} reporting 1 silent · "), lot_row
    assert "last report just now" in lot_row
    assert "Last 24 hours 3 reports · 0 rejected" in words(app.el(row))

    # Words, not the API's: no timestamps, ids or enum names.
    text = app.el(pane).text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T|\d{2}:\d{2}:\d{2}", text), text
    for raw in (weak["sensorId"], weak["id"], lot["id"], "lowBattery", "weakSignal", "neverReported"):
        assert raw not in text, raw
    assert fits_the_phone(app)
    assert not app.console_errors()


def test_prk1_an_operator_adds_a_gateway_sees_its_secret_once_gives_it_a_new_one_and_revokes_it(browser, site_server, operator, artifacts):
    site = site_server.site
    name = f"Structure roof {secrets.token_hex(2)}"
    sensor = site_server.spots(site_server.lot("NPS")["id"])[5]["sensorId"]
    report = lambda key, occupied: api(site_server.url, "POST", "/v1/gateway/events", {"events": [  # noqa: E731
        {"sensorId": sensor, "occupied": occupied, "observedAt": utc_iso(datetime.now(timezone.utc)), "sequence": next_sequence(site_server)}]},
        token=key)

    app = signed_in(browser, site_server, operator, "/me/operate/sensors")
    open_operate(app, "sensors")
    admin = '[data-testid="op-gateways"]'
    app.wait(lambda: "No gateway has been made for this site yet" in app.el(".op-gateway-admin").text
             or app.els(f"{admin} > li"), message="the site's gateways")
    app.el('form[data-form="add-gateway"] input[name="gateway-name"]').send_keys(name)
    app.el('form[data-form="add-gateway"] button[type="submit"]').click()
    panel = '[data-testid="op-gateway-secret"]'
    app.wait(lambda: app.el(panel).is_displayed() and "wmg_" in app.el(panel).text, message="the secret, shown once")
    secret = app.el(f"{panel} .op-secret-value").text
    assert f"Secret for {name}" in words(app.el(panel)) and "Shown only now" in app.el(panel).text
    row = f'{admin} > li[data-name="{name}"]'
    app.wait(lambda: "no report yet" in words(app.el(row)), message="the new gateway listed")
    app.screenshot(artifacts / "operate-gateways-secret-phone.png")
    assert fits_the_phone(app)

    # The secret works for this site's sensors; the row says when it last reported.
    status, result = report(secret, True)
    assert status == 200 and result["accepted"] == 1, result
    app.el('[data-action="secret-done"]').click()
    app.wait(lambda: not app.el(panel).is_displayed(), message="the secret put away")
    app.js("window.scrollTo(0, 0); document.getElementById('accounts-body').scrollTop = 0")
    app.js("arguments[0].click()", app.el('[data-action="refresh-sensors"]'))
    app.wait(lambda: "last report just now" in words(app.el(row)), message="its last report")

    # A new secret: asked first; the old one is refused from then on. Clicked in the page: the
    # sensors above may still be redrawing after the refresh and move the row under a real click.
    app.js("arguments[0].click()", app.el(f'{row} [data-action="new-secret"]'))
    app.wait(lambda: app.els('#dialog[open][data-name="new-gateway-secret"]'), message="the new-secret question")
    assert "stops working at once" in app.el("#dialog .dialog-message").text
    app.dialog_action("new-gateway-secret", "confirm")
    app.wait(lambda: app.el(panel).is_displayed() and app.el(f"{panel} .op-secret-value").text not in ("", secret), message="the new secret")
    fresh = app.el(f"{panel} .op-secret-value").text
    assert report(secret, False)[0] == 401
    assert report(fresh, False)[0] == 200

    desk = make_driver(1280, 900, 1, False)
    try:
        wide = signed_in(desk, site_server, operator, "/me/operate/sensors")
        open_operate(wide, "sensors")
        wide.wait(lambda: wide.els(row), message="the gateway on a desktop")
        wide.js("arguments[0].scrollIntoView({block: 'center'})", wide.el(row))
        wide.screenshot(artifacts / "operate-gateways-desktop.png")
        assert not wide.console_errors()
    finally:
        desk.quit()

    # Revoked, with a warning first: it stays listed as revoked, and its secret is refused.
    app.js("arguments[0].click()", app.el(f'{row} [data-action="revoke-gateway"]'))
    app.wait(lambda: app.els('#dialog[open][data-name="revoke-gateway"]'), message="the revoke question")
    app.dialog_action("revoke-gateway", "confirm")
    app.wait(lambda: "(revoked)" in words(app.el(row)), message="the gateway shown revoked")
    assert not app.els(f'{row} [data-action="revoke-gateway"]') and not app.els(f'{row} [data-action="new-secret"]')
    assert report(fresh, True)[0] == 401

    status, changes = api(site_server.url, "GET", f"/v1/sites/{site['id']}/changes", token=operator["token"])
    mine = [c["summary"] for c in changes["changes"] if name in c["summary"]]
    assert mine == [f"Revoked gateway ‘{name}’", f"Gave gateway ‘{name}’ a new secret", f"Added gateway ‘{name}’"], mine
    text = app.el(".op-gateway-admin").text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T|\d{2}:\d{2}:\d{2}", text), text
    assert fits_the_phone(app)
    assert not app.console_errors()


def test_prk1_a_person_who_runs_no_site_cannot_see_its_sensors(browser, site_server, operator):
    member = new_account(site_server.url, "nosy", PASSWORD)
    status, problem = api(site_server.url, "GET", f"/v1/sites/{site_server.site['id']}/sensor-health", token=member["token"])
    assert status == 403, problem
    app = signed_in(browser, site_server, member, "/me/operate/sensors")
    Accounts(app).wait_view("operate")
    app.wait(lambda: "don’t run any site" in app.el("#accounts-body").text, message="the no-site note")
    assert not app.el(".op-tabs").is_displayed()
    assert not app.js("return performance.getEntriesByType('resource').some((e) => e.name.includes('/sensor-health'))")
    assert not app.console_errors()


def test_prk1_an_operator_closes_a_lot_for_dates_a_booking_is_refunded_and_drivers_see_it(browser, site_server, operator, artifacts):
    lot = site_server.lot("A")
    tz = ZoneInfo(site_server.site["timeZone"])
    day = (datetime.now(tz) + timedelta(days=2)).replace(hour=0, minute=0, second=0, microsecond=0)
    iso = lambda t: t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    driver = new_account(site_server.url, "closing", PASSWORD)
    assert api(site_server.url, "POST", "/v1/wallet/top-ups", {"amountMinor": 2000, "currency": "USD"}, token=driver["token"])[0] == 201
    status, booking = api(site_server.url, "POST", "/v1/bookings",
                          {"lotId": lot["id"], "start": iso(day.replace(hour=10)), "end": iso(day.replace(hour=11))}, token=driver["token"])
    assert status == 201, booking

    app = signed_in(browser, site_server, operator, "/me/operate")
    open_operate(app)
    choose_lot(app, "lots", lot["id"])
    lot_form_for(app, lot["id"])
    app.wait(lambda: "No closed dates ahead" in app.el('[data-testid="op-closures"]').text, message="no closures yet")
    # The day after tomorrow, all day, on the site's clock.
    for name, value in [("closureStart", day.strftime("%Y-%m-%dT%H:%M")), ("closureEnd", (day + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))]:
        app.js("const i = document.querySelector(`form[data-form='lot-closure'] [name='${arguments[0]}']`);"
               "i.value = arguments[1]; i.dispatchEvent(new Event('input', {bubbles: true}));", name, value)
    app.el("form[data-form='lot-closure'] [name='closureReason']").send_keys("Resurfacing")
    app.js("document.querySelector(\"form[data-form='lot-closure'] button[type='submit']\").scrollIntoView({block: 'center'})")
    app.el("form[data-form='lot-closure'] button[type='submit']").click()
    app.wait(lambda: "1 booking was cancelled and refunded" in app.el('[data-testid="op-closures"]').text, message="the closure saved")
    listed = app.wait(lambda: app.els('[data-testid="op-closures"] .op-closure'), message="the closure listed")[0].text
    one_day = f"{day:%a, %b} {day.day}"  # a whole day reads as that day, as en-US writes it
    assert listed.splitlines() == [one_day, "Resurfacing", "Open again"], listed
    assert not re.search(r"\d{4}-\d{2}-\d{2}T", app.el('[data-testid="op-closures"]').text), "times as a person reads them"
    assert fits_the_phone(app)
    app.js("document.querySelector('[data-testid=op-closures]').scrollIntoView({block: 'start'})")
    app.screenshot(artifacts / "operate-lot-closure.png")
    desk = make_driver(1280, 900, 1, False)
    try:
        wide = signed_in(desk, site_server, operator, "/me/operate")
        open_operate(wide)
        choose_lot(wide, "lots", lot["id"])
        wide.wait(lambda: wide.els('[data-testid="op-closures"] .op-closure'), message="the closure on a desktop")
        wide.js("document.querySelector('[data-testid=op-closures]').scrollIntoView({block: 'center'})")
        wide.screenshot(artifacts / "operate-lot-closure-desktop.png")
        assert "On the site’s clock (Pacific Time)" in wide.el('[data-testid="op-closures"]').text, "the zone in words, not its id"
        assert not wide.console_errors()
    finally:
        desk.quit()

    status, now = api(site_server.url, "GET", f"/v1/bookings/{booking['id']}", token=driver["token"])
    assert status == 200 and now["state"] == "cancelled", now
    status, wallet = api(site_server.url, "GET", "/v1/wallet", token=driver["token"])
    assert [b["minorUnits"] for b in wallet["balances"] if b["currency"] == "USD"] == [2000], wallet
    status, refused = api(site_server.url, "POST", "/v1/bookings",
                          {"lotId": lot["id"], "start": iso(day.replace(hour=12)), "end": iso(day.replace(hour=13))}, token=driver["token"])
    assert status == 400 and "Resurfacing" in refused["detail"], refused

    # Drivers read it on the lot's card.
    app.open("/")
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    note = app.wait(lambda: [e for e in app.els('[data-testid="lot-closures"]') if e.is_displayed()], timeout=15, message="the closure on the lot card")[0]
    assert note.text == f"Closed {one_day}: Resurfacing", note.text
    assert not re.search(r"\d{4}-\d{2}-\d{2}", note.text), note.text
    app.screenshot(artifacts / "lot-card-closure.png")

    # Lifted again: the lot takes bookings for that day once more.
    app.open("/me/operate")
    open_operate(app)
    choose_lot(app, "lots", lot["id"])
    lift = app.wait(lambda: app.els('[data-testid="op-closures"] .op-closure .link-button'), message="Open again")[0]
    app.js("arguments[0].scrollIntoView({block: 'center'})", lift)
    lift.click()
    app.dialog_action("lift-closure", "confirm")
    app.wait(lambda: "No closed dates ahead" in app.el('[data-testid="op-closures"]').text, message="the closure lifted")
    status, again = api(site_server.url, "POST", "/v1/bookings",
                        {"lotId": lot["id"], "start": iso(day.replace(hour=12)), "end": iso(day.replace(hour=13))}, token=driver["token"])
    assert status == 201, again
    assert not app.console_errors()


def centred_click(app: App, element) -> None:
    """Clicks after bringing the element to the middle, clear of the sticky tabs and save bar."""
    app.js("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def test_prk1_prk16_an_operator_adds_renames_and_removes_a_permit_and_drivers_see_it(browser, site_server, operator, artifacts):
    """Operate › Permits: a new permit's code follows its name; a permit a lot's rules require
    cannot be removed (the server's words, the input kept); the list drivers read changes at
    once, and the record says what changed."""
    site_id = site_server.site["id"]
    sites = lambda: api(site_server.url, "GET", "/v1/sites")[1]["sites"]  # noqa: E731
    before = next(s for s in sites() if s["id"] == site_id)["permits"]
    app = signed_in(browser, site_server, operator, "/me/operate/permits")
    open_operate(app, "permits")
    form = '#op-pane-permits form[data-form="site-permits"]'
    rows = lambda: app.els(f'{form} [data-row="permit"]')  # noqa: E731
    app.wait(lambda: len(rows()) == len(before), message="the site's permits")
    assert [r.get_attribute("data-code") for r in rows()] == [k["code"] for k in before]
    assert "Handicap placard is known on every site" in app.el(form).text

    centred_click(app, app.el('#op-pane-permits [data-action="add-permits"]'))
    app.wait(lambda: len(rows()) == len(before) + 1, message="a new permit's row")
    new = rows()[-1]
    type_into(new.find_element("css selector", '[name="name"]'), "Evening Pass")
    assert new.find_element("css selector", '[name="code"]').get_attribute("value") == "evening-pass"
    app.js("const i = arguments[0].querySelector('[name=\"colour\"]'); i.value = '#224488';"
           "i.dispatchEvent(new Event('input', {bubbles: true})); i.dispatchEvent(new Event('change', {bubbles: true}));", new)
    type_into(rows()[0].find_element("css selector", '[name="name"]'), "Green Zone")
    assert "Unsaved changes" in app.el('#op-pane-permits .op-save-status').text
    assert fits_the_phone(app)
    app.screenshot(artifacts / "operate-permits.png")
    app.el(f'{form} button[type="submit"]').click()
    app.wait(lambda: "Saved. Drivers see it now." in app.el('#op-pane-permits .op-save-status').text, message="saved")
    after = next(s for s in sites() if s["id"] == site_id)["permits"]
    assert [k["name"] for k in after] == ["Green Zone", *[k["name"] for k in before[1:]], "Evening Pass"]
    assert after[-1] == {"code": "evening-pass", "name": "Evening Pass", "colour": "#224488"}

    # Green is required by lots' rules: removing it is refused, and the form keeps the edit.
    centred_click(app, rows()[0].find_element("css selector", ".op-remove"))
    app.el(f'{form} button[type="submit"]').click()
    app.dialog_action("remove-permits", "confirm")
    app.wait(lambda: app.el(f"{form} .form-error").is_displayed(), message="the server's refusal")
    assert "require Green Zone at times" in app.el(f"{form} .form-error").text
    assert len(rows()) == len(before)
    centred_click(app, app.el('#op-pane-permits [data-action="discard-permits"]'))
    app.wait(lambda: len(rows()) == len(before) + 1, message="the saved list again")

    # Evening Pass is required by no lot: it goes, after a confirm.
    centred_click(app, rows()[-1].find_element("css selector", ".op-remove"))
    app.el(f'{form} button[type="submit"]').click()
    app.dialog_action("remove-permits", "confirm")
    app.wait(lambda: "Saved." in app.el('#op-pane-permits .op-save-status').text and len(rows()) == len(before), message="removed")
    assert [k["code"] for k in next(s for s in sites() if s["id"] == site_id)["permits"]] == [k["code"] for k in before]

    app.el("#op-tab-changes").click()
    item = '[data-testid="op-changes"] li'
    app.wait(lambda: len(app.els(item)) >= 2, message="the changes")
    texts = [" ".join(li.text.split()) for li in app.els(item)[:2]]
    assert texts[0].startswith("Permits: Removed Evening Pass by"), texts
    assert texts[1].startswith(f"Permits: Added Evening Pass; renamed {before[0]['name']} to Green Zone by"), texts
    assert all("/permits" in e and "409" in e for e in app.console_errors()), "only the refusal asked for"
    # Two rows of three tabs on the phone; one row of six on a desktop.
    assert len({round(t.rect["y"]) for t in app.els(".op-tab")}) == 2

    desk = make_driver(1280, 900, 1, False)
    try:
        wide = signed_in(desk, site_server, operator, "/me/operate/permits")
        open_operate(wide, "permits")
        wide.wait(lambda: len(wide.els(f'{form} [data-row="permit"]')) == len(before), message="the permits on a desktop")
        assert len({round(t.rect["y"]) for t in wide.els(".op-tab")}) == 1
        wide.screenshot(artifacts / "operate-permits-desktop.png")
        assert not wide.console_errors()
    finally:
        desk.quit()
    status, _ = api(site_server.url, "PUT", f"/v1/sites/{site_id}/permits", {"permits": before}, token=operator["token"])
    assert status == 200
