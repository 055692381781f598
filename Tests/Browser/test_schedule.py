"""The weekly parking schedule in the web app (PRK-16): long-press and drag over empty cells
makes a block, a lot is chosen from a list with warning marks, the block takes the server's
advice colour and keeps it when the screen opens again; long-press a block to resize or
delete it. Pointer actions as a finger sends them."""
from __future__ import annotations

import secrets

import pytest

from conftest import make_driver
from helpers import App, Accounts, api

PASSWORD = "Parking#2026"

POINT = """
const [weekday, slot] = arguments;
const col = document.querySelector(`.sched-col[data-weekday="${weekday}"]`);
const body = col.closest('.panel-body');
let r = col.getBoundingClientRect();
const b = body.getBoundingClientRect();
const h = r.height / 48;
const y = r.top + (slot + 0.5) * h;
if (y < b.top + 80 || y > b.bottom - 40) { body.scrollTop += y - (b.top + b.height / 2); r = col.getBoundingClientRect(); }
return [r.left + r.width / 2, r.top + (slot + 0.5) * h];
"""


def signed_in(app: App, server) -> dict:
    name = f"sched{secrets.token_hex(3)}"
    status, session = api(server.url, "POST", "/v1/accounts", {"username": name, "password": PASSWORD})
    assert status == 201, session
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', JSON.stringify(arguments[1]))", session["token"], session["user"])
    return session


def open_schedule(app: App) -> Accounts:
    acc = Accounts(app)
    if acc.state()["view"] is None:
        acc.open()
    acc.wait_view("account")
    acc.menu("schedule")
    acc.wait_view("schedule")
    app.wait(lambda: app.js("return document.querySelector('.sched')?.dataset.loaded") == "true", message="schedule loaded")
    return acc


def blocks(app: App) -> list[dict]:
    return app.js("return [...document.querySelectorAll('.sched-block')].map(b => ({...b.dataset}))")


def run_schedule(app: App, server, artifacts, suffix: str) -> None:
    session = signed_in(app, server)
    acc = open_schedule(app)
    # Long-press Monday 9:00 and drag down to 10:30: a block 9:00–11:00.
    app.long_press_drag(app.js(POINT, 2, 18), app.js(POINT, 2, 21))
    acc.wait_view("lot-picker")
    app.wait(lambda: app.els(".lot-choice"), message="lot choices")
    choices = app.js("return [...document.querySelectorAll('.lot-choice')].map(b => ({lotId: b.dataset.lotId, level: b.dataset.level,"
                     " mark: !!b.querySelector('.warn-mark.yellow, .warn-mark.red'), spoken: /Warning:/.test(b.textContent)}))")
    assert all(c["mark"] == (c["level"] in ("yellow", "red")) for c in choices), "yellow and red lots carry a warning mark"
    assert all(c["spoken"] == (c["level"] in ("yellow", "red")) for c in choices), "and a warning a screen reader reads out"
    app.screenshot(artifacts / f"schedule-lot-picker{suffix}.png")
    chosen = choices[0]
    app.el(f'.lot-choice[data-lot-id="{chosen["lotId"]}"]').click()
    acc.wait_view("schedule")
    app.wait(lambda: len(blocks(app)) == 1 and blocks(app)[0].get("lotId") == chosen["lotId"], message="block with lot")
    block = blocks(app)[0]
    assert (block["weekday"], block["start"], block["end"]) == ("2", "18", "22")
    server_blocks = api(server.url, "GET", "/v1/me/schedule", token=session["token"])[1]["blocks"]
    assert [(b["weekday"], b["startSlot"], b["endSlot"], b["lotId"]) for b in server_blocks] == [(2, 18, 22, chosen["lotId"])]
    assert block["level"] == server_blocks[0]["advice"]["level"] == chosen["level"], "coloured by the server's advice"
    colour = app.js("return getComputedStyle(document.querySelector('.sched-block')).backgroundColor")
    expected = app.js(f"const e = document.createElement('div'); e.style.background = 'var(--{block['level'] if block['level'] in ('green', 'yellow', 'red') else 'unknown'})';"
                      "document.body.append(e); const c = getComputedStyle(e).backgroundColor; e.remove(); return c;")
    assert colour == expected

    # The selection stops at an occupied cell: drag on Monday from 7:00 down past 9:00.
    app.long_press_drag(app.js(POINT, 2, 14), app.js(POINT, 2, 20))
    acc.wait_view("lot-picker")
    app.el("#accounts-back").click()
    acc.wait_view("schedule")
    app.wait(lambda: len(blocks(app)) == 2, message="second block")
    assert [(b["start"], b["end"]) for b in blocks(app)] == [("14", "18"), ("18", "22")]

    # Re-checked on open: leave and come back, the advice is fetched again.
    app.el("#accounts-back").click()
    acc.wait_view("account")
    acc.menu("schedule")
    acc.wait_view("schedule")
    app.wait(lambda: len(blocks(app)) == 2, message="blocks after reopening")

    # Long-press the 9:00 block: edit mode; drag its end handle down by two rows.
    app.long_press_drag(app.js(POINT, 2, 19))
    app.wait(lambda: app.els(".sched-block.editing"), message="edit mode")
    h = app.el(".sched-block.editing .sched-handle.end").rect
    row = app.js("return document.querySelector('.sched-col').getBoundingClientRect().height / 48")
    start = (h["x"] + h["width"] / 2, h["y"] + h["height"] / 2)
    app.long_press_drag(start, (start[0], start[1] + row * 2), hold=0.1)
    app.wait(lambda: [b for b in blocks(app) if b["start"] == "18"][0]["end"] in ("24", "25"), message="resized")
    app.screenshot(artifacts / f"schedule-grid{suffix}.png")
    end = int([b for b in blocks(app) if b["start"] == "18"][0]["end"])
    app.wait(lambda: any(b["startSlot"] == 18 and b["endSlot"] == end
                         for b in api(server.url, "GET", "/v1/me/schedule", token=session["token"])[1]["blocks"]), message="resize saved")

    # Delete after confirming.
    app.wait(lambda: app.els('.sched-block.editing [data-testid="delete-block"]'), message="delete button")
    app.el('.sched-block.editing [data-testid="delete-block"]').click()
    app.dialog_action("delete-block", "confirm")
    app.wait(lambda: len(blocks(app)) == 1, message="deleted")
    assert len(api(server.url, "GET", "/v1/me/schedule", token=session["token"])[1]["blocks"]) == 1
    assert app.console_errors() == []


def test_prk16_schedule_long_press_drag_lot_advice_resize_delete(driver, accounts_server, artifacts):
    app = App(driver, accounts_server.url).open()
    run_schedule(app, accounts_server, artifacts, "")


def test_prk16_schedule_dark_theme(accounts_server, artifacts):
    d = make_driver()
    try:
        app = App(d, accounts_server.url)
        app.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        app.open()
        run_schedule(app, accounts_server, artifacts, "-dark")
    finally:
        d.quit()
