"""Lot details, reviews and the lot finder in the web app (PRK-14; UniPark: "which lots have a
rating above 4.5 around a given location?"), and a review written offline (PRK-19). A real
server with the demo campus and real Chromium at phone size."""
from __future__ import annotations

import json
import re
import pathlib
import secrets
import shutil
import time
import tempfile

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import WaymarkServer
from helpers import App, api

PASSWORD = "Parking#2026"


@pytest.fixture(scope="module")
def review_server():
    """Its own server: the ratings these tests make must not leak into other tests' lots."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-reviews-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def register(server, prefix: str = "reviewer") -> dict:
    status, session = api(server.url, "POST", "/v1/accounts",
                          {"username": f"{prefix}{secrets.token_hex(3)}", "password": PASSWORD})
    assert status == 201, session
    return session


def sign_in_browser(app: App, session: dict) -> None:
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", session["token"], json.dumps(session["user"]))
    app.open()


def review(server, token: str, lot_id: str, stars: int, text: str = "") -> None:
    status, body = api(server.url, "PUT", f"/v1/lots/{lot_id}/reviews/me", {"stars": stars, "text": text}, token=token)
    assert status in (200, 201), body


def click(app: App, css: str) -> None:
    """Clicks an element of the card once it is scrolled into the card's view and the sheet has
    finished sliding in."""
    element = app.wait(lambda: app.els(css), message=css)[0]
    app.js("arguments[0].scrollIntoView({block: 'center'})", element)
    time.sleep(0.3)
    app.frame()
    element.click()


def summary(app: App) -> tuple[str, str]:
    sec = app.el('#lot-card [data-testid="reviews"]')
    return sec.get_attribute("data-count"), sec.get_attribute("data-average")


def test_prk14_write_a_review_see_the_summary_edit_it_and_find_lots_rated_above_4_5(driver, review_server, artifacts):
    """PRK-14: the card shows address, price, hours and "keys must be left"; a review written
    with the keyboard-operable star picker updates the rating; editing keeps one review; the
    finder lists only lots rated strictly above 4.5 and flies the map to the one chosen."""
    lots = {l["code"]: l for l in api(review_server.url, "GET", f"/v1/sites/{review_server.site['id']}/lots")[1]["lots"]}
    session = register(review_server)
    app = App(driver, review_server.url).open()
    sign_in_browser(app, session)

    app.js("window.waymark.openLot(arguments[0])", lots["A"]["id"])
    app.wait(lambda: app.el('#lot-card [data-testid="rating-summary"]').text == "Not rated yet.", message="no rating yet")
    card = app.el("#lot-card").text
    assert "Keys must be left with the attendant" in card
    assert lots["A"]["address"] in card
    assert "per hour" in card and "Hours" in card
    # The accessible spots' own count, from the lot's spots and their live states; and how fresh the figures are.
    access = app.wait(lambda: app.el('#lot-card [data-testid="lot-accessible"]'), message="the accessible count").text
    assert re.fullmatch(r"Accessible spots: \d+ of \d+ free", access), access
    fresh = app.el('#lot-card [data-testid="lot-fresh"]').text
    assert fresh.startswith("Last change ") and "T" not in fresh.replace("Last", ""), fresh

    # Write: the star picker is a radio group driven by the keyboard.
    click(app, '#lot-card [data-action="write-review"]')
    first_star = app.wait(lambda: app.el('#lot-card .star-picker [role="radio"][data-stars="1"]'), message="star picker")
    assert app.el("#lot-card .star-picker").get_attribute("role") == "radiogroup"
    assert app.js("return document.activeElement.dataset.stars") == "1", "the picker has the focus"
    first_star.send_keys(Keys.SPACE)
    active = app.js("return document.activeElement")
    active.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert app.el("#lot-card .star-picker").get_attribute("data-value") == "4"
    assert app.el('#lot-card .star-picker [data-stars="4"]').get_attribute("aria-checked") == "true"
    app.el("#lot-card .review-form textarea").send_keys("Easy to find a space before 8.")
    click(app, '#lot-card [data-action="save-review"]')
    app.wait(lambda: summary(app) == ("1", "4.00"), message="summary after writing")
    items = app.els('#lot-card [data-testid="review-list"] li')
    assert len(items) == 1 and "Easy to find a space before 8." in items[0].text and "(you)" in items[0].text
    assert "4.0" in app.el('#lot-card [data-testid="rating-summary"]').text
    app.screenshot(artifacts / "reviews-written.png")

    # Edit: the same review, now five stars and new words.
    click(app, '#lot-card [data-action="write-review"]')
    app.wait(lambda: app.el("#lot-card .star-picker").get_attribute("data-value") == "4", message="picker shows my stars")
    assert app.el("#lot-card .review-form textarea").get_attribute("value") == "Easy to find a space before 8."
    app.js("return document.activeElement").send_keys(Keys.END)
    text = app.el("#lot-card .review-form textarea")
    text.clear()
    text.send_keys("Even better with a booking.")
    click(app, '#lot-card [data-action="save-review"]')
    app.wait(lambda: summary(app) == ("1", "5.00"), message="summary after editing")
    items = app.els('#lot-card [data-testid="review-list"] li')
    assert len(items) == 1 and "Even better with a booking." in items[0].text and "edited" in items[0].text
    assert app.el('#lot-card [data-action="write-review"]').text == "Edit your review"
    _, listed = api(review_server.url, "GET", f"/v1/lots/{lots['A']['id']}/reviews")
    assert [r["stars"] for r in listed["reviews"]] == [5], "one review, edited"

    # Others rate G at 4.0 and CP at exactly 4.5: neither is above 4.5.
    other, third = register(review_server, "other"), register(review_server, "third")
    review(review_server, other["token"], lots["G"]["id"], 4)
    review(review_server, other["token"], lots["CP"]["id"], 5)
    review(review_server, third["token"], lots["CP"]["id"], 4)

    # With the card open on a 390 px phone, the person's space ("You" in the tab bar) and the
    # finder button stay uncovered.
    for tool in ("nav-me", "btn-find"):
        assert app.js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                      "return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest('a, button')?.id",
                      tool) == tool
    app.el("#lot-card .close").click()
    app.el("#btn-find").click()
    app.wait(lambda: app.el("#finder").is_displayed(), message="finder open")
    assert app.el("#btn-find").get_attribute("aria-expanded") == "true"
    # On a 390 px phone the panel leaves the toolbar and the tab bar, and so the person's space, uncovered.
    bell = app.el("#btn-notifications").rect
    account = app.el("#nav-me").rect
    panel = app.el("#finder").rect
    assert panel["x"] + panel["width"] <= bell["x"], (panel, bell)
    assert panel["y"] + panel["height"] <= account["y"], (panel, account)
    for tool in ("nav-me", "btn-notifications"):
        hit = app.js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                     "return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).closest('a, button')?.id", tool)
        assert hit == tool
    app.wait(lambda: len(app.els('#finder [data-testid="finder-results"] [data-code]')) == len(lots), message="every lot listed")

    app.el('#finder input[name="rated"]').click()
    app.wait(lambda: [b.get_attribute("data-code") for b in app.els('#finder [data-testid="finder-results"] [data-code]')] == ["A"],
             message="only A is rated above 4.5")
    assert "1 lot" in app.el('#finder [data-testid="finder-status"]').text
    app.screenshot(artifacts / "reviews-finder.png")

    # Near the map centre, within 500 m, keys left with the attendant: A is still found.
    app.js("window.waymark.map.setView({center: {lat: arguments[0], lon: arguments[1]}, zoom: 16})",
           lots["A"]["center"]["latitude"], lots["A"]["center"]["longitude"])
    app.js("const s = document.getElementById('finder-near'); s.value = 'map'; s.dispatchEvent(new Event('change', {bubbles: true}));")
    app.wait(lambda: re.match(r"^\d+ m · ", app.el('#finder [data-code="A"] small').text), message="distance shown")

    # The map is elsewhere when A is chosen: it flies to A and keeps it in sight above the card.
    app.js("window.waymark.map.setView({center: {lat: arguments[0], lon: arguments[1]}, zoom: 15})",
           lots["J"]["center"]["latitude"], lots["J"]["center"]["longitude"])
    app.el('#finder [data-code="A"]').click()
    app.wait(lambda: app.el("#lot-card").get_attribute("data-lot-id") == lots["A"]["id"], message="card of A")
    assert not app.el("#finder").is_displayed()
    in_sight = ("const p = window.waymark.map.project({lat: arguments[0], lon: arguments[1]});"
                "const covered = window.waymark.lotCardCovered();"
                "const {width, height} = window.waymark.map.size();"
                "return p.x > 0 && p.x < width && p.y > 0 && p.y < height - covered;")
    app.wait(lambda: app.js(in_sight, lots["A"]["center"]["latitude"], lots["A"]["center"]["longitude"]),
             message="the map moved to A")
    assert app.console_errors() == []


def test_prk14_prk19_a_review_written_offline_waits_and_is_sent_once_back_online(driver, own_server, artifacts):
    """PRK-19: with the server gone, a review is kept as "Waiting to send" and posted once
    when the server is back; PRK-14: deleting it leaves the lot unrated."""
    session = register(own_server)
    lot = own_server.lot("G")
    app = App(driver, own_server.url).open()
    sign_in_browser(app, session)
    app.js("window.waymark.openLot(arguments[0])", lot["id"])
    app.wait(lambda: app.els('#lot-card [data-action="write-review"]'), message="write button")

    own_server.stop()
    click(app, '#lot-card [data-action="write-review"]')
    click(app, '#lot-card .star-picker [data-stars="3"]')
    app.el("#lot-card .review-form textarea").send_keys("Written in the garage, no signal.")
    click(app, '#lot-card [data-action="save-review"]')
    waiting = app.wait(lambda: app.els('#lot-card [data-testid="review-waiting"]'), timeout=30, message="queued review")
    assert "Waiting to send" in waiting[0].text
    assert app.el("#nav-me").get_attribute("data-waiting") == "1"
    app.screenshot(artifacts / "reviews-offline-waiting.png")

    own_server.start()
    app.js("window.dispatchEvent(new Event('online'))")
    app.wait(lambda: not app.els('#lot-card [data-testid="review-waiting"]'), timeout=45, message="review sent")
    app.wait(lambda: summary(app) == ("1", "3.00"), timeout=20, message="summary after sending")
    _, listed = api(own_server.url, "GET", f"/v1/lots/{lot['id']}/reviews")
    assert [(r["stars"], r["text"]) for r in listed["reviews"]] == [(3, "Written in the garage, no signal.")]
    assert app.el("#nav-me").get_attribute("data-waiting") == "0"

    # Deleting, online: gone for everyone, and the lot is not rated any more.
    click(app, '#lot-card [data-action="delete-review"]')
    app.dialog_action("confirm-delete-review", "confirm")
    app.wait(lambda: summary(app) == ("0", ""), message="summary after deleting")
    assert app.el('#lot-card [data-action="write-review"]').text == "Write a review"
    assert api(own_server.url, "GET", f"/v1/lots/{lot['id']}/reviews")[1]["reviews"] == []
