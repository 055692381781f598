"""Finding a lot by what a driver types (PRK-14; UniPark: search locations): a lot's name, code
or address in the finder's search box, slips forgiven; and a place on campus — a building from
the campus map's search — whose nearby lots the finder then lists, nearest first. The place part
needs a parking site beside a mapped campus: a small site file beside the demo venue's library
is imported for it."""
from __future__ import annotations

import json
import math
import re
import subprocess

from helpers import App

LIBRARY = (34.182514, -117.323915)  # John M. Pfau Library, the demo venue's building


def offset(lat: float, lon: float, east: float, north: float) -> tuple[float, float]:
    return lat + north / 111_320, lon + east / (111_320 * math.cos(math.radians(lat)))


def square(lat: float, lon: float, side: float = 60) -> list[list[float]]:
    h = side / 2
    corners = [offset(lat, lon, e, n) for e, n in ((-h, -h), (h, -h), (h, h), (-h, h), (-h, -h))]
    return [[c[1], c[0]] for c in corners]


def lot(code: str, name: str, east: float, north: float) -> dict:
    lat, lon = offset(*LIBRARY, east, north)
    return {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [square(lat, lon)]},
            "properties": {"feature": "lot", "code": code, "name": name, "kind": "surface", "capacity": 80,
                           "entrance": [lon, offset(lat, lon, 0, -30)[0]],
                           "hours": [{"days": "Mo-Su", "open": "00:00", "close": "24:00"}],
                           "price": {"currency": "USD", "hourly": "1.00", "dailyMax": "6.00"}}}


def finder_codes(app: App) -> list[str]:
    return [b.get_attribute("data-code") for b in app.els('#finder [data-testid="finder-results"] [data-code]')]


def type_words(app: App, words: str) -> None:
    box = app.el("#finder-q")
    box.clear()
    box.send_keys(words)


def test_prk14_a_lot_is_found_by_its_name_or_street_and_lots_near_a_campus_building_nearest_first(driver, own_server, artifacts):
    site_file = own_server.workdir / "csusb-parking.geojson"
    site_file.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [LIBRARY[1], LIBRARY[0]]},
         "properties": {"feature": "site", "code": "csusb", "name": "CSU San Bernardino", "timeZone": "America/Los_Angeles"}},
        lot("G", "Lot G", east=0, north=160),
        lot("P", "Lot P", east=800, north=0),
    ]}))
    out = subprocess.run([str(own_server.binary), "import", "site", str(site_file), "--database", str(own_server.database)],
                         capture_output=True, text=True, env=own_server.env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]

    # At Cal State Fullerton: its lots by name, by the start of a word, with a slip, by street.
    app = App(driver, own_server.url)
    app.cdp("Browser.grantPermissions", {"origin": own_server.url, "permissions": ["geolocation"]})
    app.cdp("Emulation.setGeolocationOverride", {"latitude": 33.8831, "longitude": -117.8854, "accuracy": 25})
    app.open()
    app.wait(lambda: app.el("#site-name").text == "CSU Fullerton", timeout=20, message="the nearest site")
    app.el("#btn-find").click()
    app.wait(lambda: app.el("#finder").is_displayed() and finder_codes(app), message="the finder with every lot")
    assert app.js("return document.activeElement.id") == "finder-q", "the search box takes the focus"
    status = lambda: app.el('#finder [data-testid="finder-status"]').text  # noqa: E731
    type_words(app, "nutwod")
    # A slip forgiven: the Nutwood structure first, then the lots on Nutwood Ave.
    app.wait(lambda: set(finder_codes(app)) == {"NPS", "E", "CP", "ENPS", "ESPS"}, message="the lots named or on Nutwood")
    assert finder_codes(app)[0] == "NPS"
    type_words(app, "Eastside")
    app.wait(lambda: finder_codes(app) == ["ENPS", "ESPS"], message="both eastside structures")
    assert status() == "2 lots"
    type_words(app, "lot a")
    app.wait(lambda: finder_codes(app) == ["A"], message="Lot A")
    # Words that name no lot and no place of this campus say so and what to try.
    type_words(app, "library")
    app.wait(lambda: status().startswith("No lot is called “library”"), message="no lot called so")
    assert "Try other words" in status() and not app.el('[data-testid="finder-places"]').is_displayed(), \
        "the demo venue's library is 80 km away: not a place of this campus"
    type_words(app, "lot a")
    app.wait(lambda: finder_codes(app) == ["A"], message="Lot A again")
    app.screenshot(artifacts / "finder-words-phone.png")
    app.el('#finder [data-code="A"]').click()
    app.wait(lambda: "Lot A" in app.el("#lot-card").text, message="Lot A's card")

    # Beside the mapped campus, chosen with the site chip: the library is a place; its lots come nearest first.
    app.open()
    app.wait(lambda: app.el("#site-chip").get_attribute("data-picker") == "on", message="the site chip")
    app.js("arguments[0].click()", app.el("#site-chip"))
    choices = app.wait(lambda: app.els('#dialog[open] .dialog-actions button'), message="the site picker")
    app.js("arguments[0].click()", next(b for b in choices if b.text.startswith("CSU San Bernardino")))
    app.wait(lambda: app.el("#site-name").text == "CSU San Bernardino", timeout=20, message="the campus by the library")
    app.el("#btn-find").click()
    app.wait(lambda: app.el("#finder").is_displayed() and sorted(finder_codes(app)) == ["G", "P"], message="its two lots")
    type_words(app, "library")
    places = '[data-testid="finder-places"] [data-place-id]'
    app.wait(lambda: app.els(places), message="the library among places")
    assert status().startswith("No lot is called “library”; lots near a place it names are below."), status()
    first = app.els(places)[0]
    assert first.text.split("\n")[0] == "John M. Pfau Library", first.text
    app.screenshot(artifacts / "finder-places-phone.png")
    first.click()
    app.wait(lambda: finder_codes(app) == ["G", "P"], message="lots near the library, nearest first")
    assert status() == "2 lots near John M. Pfau Library", status()
    assert app.el("#finder-near").get_attribute("value") == "place"
    assert app.js("return document.getElementById('finder-near').selectedOptions[0].textContent") == "Near John M. Pfau Library"
    assert app.el("#finder-q").get_attribute("value") == ""
    distances = [app.el(f'#finder [data-code="{c}"] small').text for c in ("G", "P")]
    assert re.match(r"^1[4-7]0 m · ", distances[0]) and re.match(r"^(7[6-9]0|8[0-4]0) m · ", distances[1]), distances
    # Within 500 m only the nearer one is left.
    app.js("const s = document.getElementById('finder-radius'); s.value = '500'; s.dispatchEvent(new Event('change', {bubbles: true}));")
    app.wait(lambda: finder_codes(app) == ["G"], message="only Lot G within 500 m")
    text = app.el("#finder").text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T", text) and "csusb" not in text
    assert app.console_errors() == []
