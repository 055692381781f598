"""Operator analytics in the web app (PRK-17; UniPark's business questions): an operator,
granted with `waymark operator grant` on the server's database, finds Analytics in the Accounts
menu and sees the share of active accounts that booked per day, the lots most booked for the
06:30–09:30 rush, how often bookings were changed and the slowest operations, on a phone-sized
screen. A member has no such menu entry and the API refuses them."""
from __future__ import annotations

import json
import re
import pathlib
import secrets
import shutil
import subprocess
import tempfile
import uuid
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from conftest import WaymarkServer
from helpers import App, Accounts, api, use_session

PASSWORD = "Parking#2026"


@pytest.fixture(scope="module")
def analytics_server():
    """Its own server: the operator is granted in its database."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-analytics-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def register(server, email: str | None = None) -> dict:
    body = {"username": f"an{secrets.token_hex(3)}", "password": PASSWORD}
    if email:
        body["email"] = email
    status, session = api(server.url, "POST", "/v1/accounts", body)
    assert status == 201, session
    return session


def post(server, path: str, body: dict, token: str, method: str = "POST"):
    import urllib.error
    import urllib.request
    request = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), method=method,
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 "Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())})
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def grant(server, email: str) -> None:
    out = subprocess.run([str(server.binary), "operator", "grant", email, "--database", str(server.database)],
                         cwd=server.workdir, capture_output=True, text=True, env=server.env)
    assert out.returncode == 0, out.stderr
    listed = subprocess.run([str(server.binary), "operator", "list", "--database", str(server.database)],
                            cwd=server.workdir, capture_output=True, text=True, check=True, env=server.env)
    assert email in listed.stdout


def iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def sign_in_browser(app: App, session: dict) -> None:
    use_session(app, session)
    app.open()


def menu_item_shown(app: App, action: str) -> bool:
    return app.js("const b = document.querySelector(`#accounts button[data-action='${arguments[0]}']`);"
                  "return !!b && b.offsetParent !== null", action)


def table_rows(app: App, testid: str) -> list[list[str]]:
    return app.js("""
        const t = document.querySelector(`[data-testid="${arguments[0]}"]`);
        if (!t) return [];
        return [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent.trim()));""", testid)


def test_prk17_an_operator_sees_the_figures_a_member_has_no_entry_and_gets_403(driver, analytics_server, artifacts):
    server = analytics_server
    operator = register(server, email=f"ops{secrets.token_hex(3)}@example.com")
    member = register(server)
    assert operator["user"]["isOperator"] is False
    grant(server, operator["user"]["email"])

    # The member books the Nutwood structure for 07:00 tomorrow (the rush) and changes it once.
    token = member["token"]
    assert post(server, "/v1/wallet/top-ups", {"amountMinor": 2000, "currency": "USD"}, token)[0] == 201
    tz = ZoneInfo(server.site["timeZone"])
    now = datetime.now(tz)
    tomorrow = (now + timedelta(days=1)).replace(hour=7, minute=0, second=0, microsecond=0)
    nps = server.lot("NPS")
    status, booking = post(server, "/v1/bookings", {"lotId": nps["id"], "start": iso(tomorrow), "end": iso(tomorrow + timedelta(hours=1))}, token)
    assert status == 201, booking
    status, moved = post(server, f"/v1/bookings/{booking['id']}", {"start": iso(tomorrow), "end": iso(tomorrow + timedelta(hours=2))}, token, method="PATCH")
    assert status == 200 and moved["modifications"] == 1, moved

    # The member: no menu entry, and the API says why.
    status, problem = api(server.url, "GET", "/v1/operator/analytics", token=token)
    assert status == 403 and problem["type"].endswith("/operator-required"), problem
    app = App(driver, server.url).open()
    acc = Accounts(app)
    sign_in_browser(app, member)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    app.wait(lambda: menu_item_shown(app, "wallet"), message="the member's menu")
    app.wait(lambda: app.js("return JSON.parse(localStorage.getItem('waymark.account.me')).isOperator === false"), message="Me answered")
    assert not menu_item_shown(app, "analytics")

    # The operator: the session's Me still says "not an operator" (granted afterwards); the
    # menu follows the server's answer.
    app.js("localStorage.clear()")
    sign_in_browser(app, operator)
    app.js("window.waymark.openAccount()")
    acc.wait_view("account")
    app.wait(lambda: menu_item_shown(app, "analytics"), message="Analytics in the operator's menu")
    acc.menu("analytics")
    acc.wait_view("analytics")
    app.wait(lambda: len(table_rows(app, "an-days")) == 14, message="14 days of shares")
    today = f"{now:%a, %b} {now.day}"  # the day in words, as en-US writes it
    days = {row[0]: row for row in table_rows(app, "an-days")}
    assert not any(re.match(r"\d{4}-\d{2}-\d{2}", day) for day in days), days.keys()
    assert "(days in Pacific Time)" in app.el('[data-testid="an-shares"]').text
    assert days[today][1:3] == ["2", "1"], days[today]  # both accounts active today, one booked
    assert days[today][3].startswith("50%"), days[today]
    assert table_rows(app, "an-modifications")[:2] == [["Never", "0"], ["Once", "1"]]
    # The slowest ten operations of this server, slowest first by p95; which ten depends on how
    # busy the machine was, so the test checks the shape, not the names.
    slowest = table_rows(app, "an-slowest")
    assert 1 <= len(slowest) <= 10, slowest
    assert all(int(row[1]) >= 1 for row in slowest), slowest
    p95 = [float(row[3].removesuffix(" ms")) for row in slowest]
    assert p95 == sorted(p95, reverse=True), slowest
    # Tomorrow's rush is outside the last 14 days: no lot yet.
    assert not app.els('[data-testid="an-peak-lots"] li')

    # A range that reaches tomorrow shows the Nutwood structure for the rush.
    app.js("""
        document.querySelector('form[data-form="analytics-range"] [name="from"]').value = arguments[0];
        document.querySelector('form[data-form="analytics-range"] [name="to"]').value = arguments[1];""",
           now.date().isoformat(), tomorrow.date().isoformat())
    acc.submit("analytics-range")
    app.wait(lambda: [li.text for li in app.els('[data-testid="an-peak-lots"] li')], message="peak lots")
    lots = [li.text for li in app.els('[data-testid="an-peak-lots"] li')]
    assert len(lots) == 1 and "(NPS)" in lots[0] and "1 booking" in lots[0], lots
    assert len(table_rows(app, "an-days")) == 2

    # Readable on a phone: nothing wider than the screen except inside the tables' own scroll.
    assert app.js("return document.documentElement.scrollWidth <= window.innerWidth")
    headers = app.js("return [...document.querySelectorAll('[data-testid=\"an-days\"] thead th')].map((th) => th.getAttribute('scope'))")
    assert headers == ["col"] * 4
    app.screenshot(artifacts / "analytics-operator.png")
    assert not app.console_errors()
