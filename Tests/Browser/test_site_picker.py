"""Several parking sites side by side (PRK-1): a campus imported from its site file beside the
demo, the site chip's picker nearest first, and the choice remembered by the browser."""
import datetime
import pathlib
import subprocess
from zoneinfo import ZoneInfo

from helpers import App

REPO = pathlib.Path(__file__).resolve().parents[2]
SITE_FILE = REPO / "Tests" / "WaymarkCoreTests" / "Fixtures" / "sites" / "riverside-college.geojson"
SPOTS_FILE = SITE_FILE.with_name("riverside-college-spots.csv")


def lot_a_open():
    """Lot A keeps hours (weekdays 6:00–23:00, Saturdays 8:00–18:00 on the campus clock); the other
    two are always open, so only Lot A's caption depends on when the test runs."""
    now = datetime.datetime.now(ZoneInfo("America/Los_Angeles"))
    minutes = now.hour * 60 + now.minute
    if now.weekday() < 5:
        return 6 * 60 <= minutes < 23 * 60
    return now.weekday() == 5 and 8 * 60 <= minutes < 18 * 60


def test_PRK_1_an_imported_campus_beside_the_demo_is_chosen_nearest_first_and_remembered(driver, own_server, artifacts):
    out = subprocess.run([str(own_server.binary), "import", "site", str(SITE_FILE), "--spots", str(SPOTS_FILE),
                          "--database", str(own_server.database)], capture_output=True, text=True, env=own_server.env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Site 'Riverside College' (rcc) added" in out.stdout

    app = App(driver, own_server.url)
    app.cdp("Browser.grantPermissions", {"origin": own_server.url, "permissions": ["geolocation"]})
    app.cdp("Emulation.setGeolocationOverride", {"latitude": 33.9712, "longitude": -117.3281, "accuracy": 25})
    app.open()
    name = lambda: app.el("#site-name").text  # noqa: E731
    # A first visit from beside the imported campus opens on it, not on the first site by name.
    app.wait(lambda: name() == "Riverside College", timeout=20, message="the nearest site on a first visit")
    # Its sensors have not reported yet: its lots say so instead of showing 0 free in green.
    # Outside its hours Lot A says it is closed instead (read on both sides of the pins, so a run
    # at the minute it opens or closes accepts either).
    a_open_before = lot_a_open()
    pins = app.wait(lambda: app.js("return window.waymark.pins()"), message="the lots' pins")
    a_captions = {"No data yet" if is_open else "Closed" for is_open in (a_open_before, lot_a_open())}
    assert {p["code"] for p in pins} == {"A", "S", "M"}, pins
    assert all(p["caption"] == "No data yet" for p in pins if p["code"] != "A"), pins
    assert [p["caption"] for p in pins if p["code"] == "A"][0] in a_captions, pins
    assert {p["level"] for p in pins} == {"unknown"}, pins
    # Its card says so too, and offers directions to the lot's entrance in the phone's maps app.
    app.js("window.waymark.openLot(arguments[0])", [p for p in pins if p["code"] == "S"][0]["lotId"])
    card = app.wait(lambda: app.els("#lot-card-occupancy"), message="the lot card")[0]
    assert "No sensor readings yet" in card.text and "without a sensor reading" in card.text, card.text
    link = app.el('[data-testid="lot-directions"]').get_attribute("href")
    assert link.startswith("https://www.google.com/maps/dir/?api=1&destination=33.9"), link
    app.screenshot(artifacts / "site-picker-riverside-phone.png")

    chip = app.el("#site-chip")
    assert chip.get_attribute("data-picker") == "on" and chip.get_attribute("role") == "button"
    app.js("arguments[0].click()", chip)
    choices = app.wait(lambda: app.els('#dialog[open] .dialog-actions button'), message="the site picker")
    labels = [b.text for b in choices]
    # In the browser's units (en-US: feet and miles), the campus the driver stands by first.
    assert labels[0].startswith("Riverside College · ") and labels[0].endswith(" ft"), labels
    assert labels[1].startswith("California State University, Fullerton · ") and labels[1].endswith(" mi"), labels
    assert labels[-1] == "Cancel"
    assert "Nearest first." in app.el("#dialog .dialog-message").text
    app.screenshot(artifacts / "site-picker-phone.png")

    # A site chosen is kept, nearer or not.
    app.js("arguments[0].click()", choices[1])
    app.wait(lambda: name() == "CSU Fullerton", timeout=20, message="the chosen site shown")
    app.open()
    app.wait(lambda: name() == "CSU Fullerton", timeout=20, message="the choice remembered after a reload")
