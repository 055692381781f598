"""Each campus's own permits (PRK-1, PRK-16): an imported campus lists Student, Faculty/Staff and
Resident permits, its lot card shows them by name and colour, and a person's permits are chosen
per campus, the placard once for all."""
import pathlib
import subprocess

from helpers import Accounts, App, api

REPO = pathlib.Path(__file__).resolve().parents[2]
SITE_FILE = REPO / "Tests" / "WaymarkCoreTests" / "Fixtures" / "sites" / "riverside-college.geojson"
SPOTS_FILE = SITE_FILE.with_name("riverside-college-spots.csv")


def test_PRK_16_PRK_1_an_imported_campus_names_its_own_permits_and_a_person_holds_them_per_campus(driver, own_server, artifacts):
    out = subprocess.run([str(own_server.binary), "import", "site", str(SITE_FILE), "--spots", str(SPOTS_FILE), "--database", str(own_server.database)],
                         capture_output=True, text=True, env=own_server.env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    _, listed = api(own_server.url, "GET", "/v1/sites")
    rcc = next(s for s in listed["sites"] if s["code"] == "rcc")
    assert [(p["code"], p["name"]) for p in rcc["permits"]] == [("student", "Student"), ("faculty", "Faculty/Staff"), ("resident", "Resident")]

    app = App(driver, own_server.url)
    app.cdp("Browser.grantPermissions", {"origin": own_server.url, "permissions": ["geolocation"]})
    app.cdp("Emulation.setGeolocationOverride", {"latitude": 33.9712, "longitude": -117.3281, "accuracy": 25})
    app.open()
    app.wait(lambda: app.el("#site-name").text == "Riverside College", timeout=20, message="the campus beside the driver")

    # The lot card names the rule's permits as the campus does, each with its colour.
    pins = app.wait(lambda: app.js("return window.waymark.pins()"), message="the lots' pins")
    app.js("window.waymark.openLot(arguments[0])", [p for p in pins if p["code"] == "A"][0]["lotId"])
    rules = app.wait(lambda: app.els("#lot-card .permit-rules li"), message="lot A's permit rules")
    assert rules[0].text.endswith("Student\nFaculty/Staff") or rules[0].text.endswith("Student Faculty/Staff"), "in the campus's order: " + rules[0].text
    dot = app.js("return getComputedStyle(document.querySelector('#lot-card .permit-rules [data-permit=faculty]'), '::before').backgroundColor")
    assert dot == "rgb(106, 27, 154)", dot
    app.screenshot(artifacts / "site-permits-lot-card-phone.png")

    # Your Permits at this campus: its three and the placard; Faculty/Staff chosen.
    acc = Accounts(app)
    acc.open()
    acc.menu("permits")
    acc.wait_view("permits")
    app.wait(lambda: app.el(".permit-set").is_enabled(), message="permits loaded")
    assert app.el(".permit-set legend").text == "At Riverside College"
    boxes = [b.get_attribute("value") for b in app.els(".permit-set input")]
    assert boxes == ["student", "faculty", "resident", "handicap"], boxes
    assert [c.text for c in app.els(".permit-choice .permit")] == ["Student", "Faculty/Staff", "Resident", "Handicap"]
    app.el('.permit-set input[value="faculty"]').click()
    app.wait(lambda: app.el(".permit-set").get_attribute("data-permits") == "faculty", message="Faculty/Staff saved")
    app.screenshot(artifacts / "site-permits-riverside-phone.png")
    token = app.js("return localStorage.getItem('waymark.device.token')")
    assert api(own_server.url, "GET", "/v1/me/permits", token=token) == (200, {"permits": [{"siteId": rcc["id"], "permit": "faculty"}]})

    # At the demo campus the same screen offers its own permits; the one held at Riverside stays.
    app.el("#accounts-close").click()
    app.js("arguments[0].click()", app.el("#site-chip"))
    choices = app.wait(lambda: app.els('#dialog[open] .dialog-actions button'), message="the site picker")
    app.js("arguments[0].click()", next(b for b in choices if b.text.startswith("California State University")))
    app.wait(lambda: app.el("#site-name").text == "CSU Fullerton", timeout=20, message="the demo campus shown")
    # The card open on Riverside's lot A is not carried over to a campus without it.
    assert app.js("return location.pathname") == "/" and not app.js("return document.getElementById('toast').textContent"), "no lot of the other campus is looked for"
    acc.open()
    acc.menu("permits")
    acc.wait_view("permits")
    app.wait(lambda: app.el(".permit-set").is_enabled(), message="permits loaded")
    assert [c.text for c in app.els(".permit-choice .permit")] == ["Green", "Yellow", "Black", "Handicap"]
    assert app.el(".permit-set").get_attribute("data-permits") == ""
    note = app.el(".permit-set + p").text
    assert note == "You also hold a permit at another campus; choose that campus on the map to change it.", note
    app.el('.permit-set input[value="handicap"]').click()
    app.wait(lambda: app.el(".permit-set").get_attribute("data-permits") == "handicap", message="the placard saved")
    app.screenshot(artifacts / "site-permits-demo-phone.png")
    status, held = api(own_server.url, "GET", "/v1/me/permits", token=token)
    assert status == 200 and held == {"permits": [{"permit": "handicap"}, {"siteId": rcc["id"], "permit": "faculty"}]}, held
    assert app.console_errors() == []
