"""Adding money by card in the web app (PRK-13) on a server with the card processor's keys: the
wallet says how money is added, a top-up opens a payment intent at a local stand-in for the
processor (answering with Tests/WaymarkServerTests/Fixtures/card), the card form opens in its
own dialog, and the wallet is credited only when the processor's signed webhook says the
payment succeeded. The processor's own form (its script from js.stripe.com) cannot run here:
the test blocks it, as an offline phone would, and checks what the person is told."""
from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import pathlib
import shutil
import tempfile
import threading
import time
import urllib.request

import pytest

from conftest import WaymarkServer
from helpers import App, Accounts, answer_json, api, new_account, use_session

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "WaymarkServerTests" / "Fixtures" / "card"
WEBHOOK_SECRET = "whsec_test_browser_4kT9pW2xQ7"
PASSWORD = "Parking#2026"


class Processor:
    """Answers payment intents with the fixture and remembers what was asked."""

    def __init__(self):
        self.posts: list[tuple[str, str]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                outer.posts.append((self.path, body))
                name = "payment_intent_created.json" if self.path == "/v1/payment_intents" else "refund_created.json"
                answer_json(self, (FIXTURES / name).read_bytes())

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture()
def card_server():
    processor = Processor()
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-card-"))
    s = WaymarkServer(workdir, env={
        "WAYMARK_PASSWORD_COST": "4", "WAYMARK_DEMO_PAYMENTS": "0",
        "WAYMARK_CARD_SECRET_KEY": "sk_test_browser", "WAYMARK_CARD_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "WAYMARK_CARD_PUBLISHABLE_KEY": "pk_test_browser", "WAYMARK_CARD_API_URL": processor.url,
    }).start()
    yield s, processor
    s.stop()
    processor.httpd.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)


def deliver(server, name: str) -> int:
    """Posts a fixture event as the processor does: signed over its bytes, now."""
    body = (FIXTURES / name).read_bytes()
    t = int(time.time())
    signature = hmac.new(WEBHOOK_SECRET.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    request = urllib.request.Request(server.url + "/v1/payments/card/events", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Stripe-Signature": f"t={t},v1={signature}"})
    with urllib.request.urlopen(request, timeout=20) as r:
        return r.status


def test_prk13_add_money_by_card_credited_when_the_processor_says_so(driver, card_server, artifacts):
    server, processor = card_server
    with urllib.request.urlopen(server.url + "/", timeout=20) as r:
        policy = r.headers["Content-Security-Policy"]
    assert "script-src 'self' https://js.stripe.com;" in policy and "frame-src https://js.stripe.com https://hooks.stripe.com;" in policy

    # The processor's script does not load here, as on a phone that lost its connection.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*js.stripe.com*"]})
    try:
        app = App(driver, server.url).open()
        session = new_account(server.url, "cardholder", PASSWORD)
        use_session(app, session)
        app.open()
        acc = Accounts(app)
        app.js("window.waymark.openAccount()")
        acc.wait_view("account")
        acc.menu("wallet")
        acc.wait_view("wallet")
        app.wait(lambda: "added by card" in app.el('[data-testid="wallet-paid-by"]').text, message="how money is added")

        app.el("form[data-form='top-up'] [name='amount']").send_keys("15.00")
        acc.submit("top-up")
        dialog = app.wait(lambda: app.js("const d = document.querySelector('dialog.card-dialog'); return d && d.open ? d : null"),
                          message="the card dialog")
        assert "Add $15.00 by card" in dialog.text and "never to Waymark" in dialog.text
        app.wait(lambda: "could not be loaded" in dialog.text and "nothing was charged" in dialog.text, message="the form's failure told")
        app.screenshot(artifacts / "card-form-unavailable.png")
        assert processor.posts and processor.posts[0][0] == "/v1/payment_intents" and "amount=1500" in processor.posts[0][1]
        app.el('dialog.card-dialog [data-action="close"]').click()
        app.wait(lambda: not app.js("return !!document.querySelector('dialog.card-dialog')"), message="the dialog closed")
        _, wallet = api(server.url, "GET", "/v1/wallet", token=session["token"])
        assert wallet["balances"] == [], "nothing is credited before the processor says the payment succeeded"

        # The person paid on another device meanwhile; the processor's webhook arrives.
        assert deliver(server, "event_payment_intent_succeeded.json") == 200
        assert deliver(server, "event_payment_intent_succeeded.json") == 200, "delivered twice, credited once"
        app.el("#accounts-back").click()
        acc.wait_view("account")
        acc.menu("wallet")
        acc.wait_view("wallet")
        app.wait(lambda: app.el('[data-testid="wallet-balance"]').text == "$15.00", message="credited by the webhook")
        rows = app.els('[data-testid="wallet-history"] li')
        assert len(rows) == 1 and "Money added" in rows[0].text and "+$15.00" in rows[0].text
        app.screenshot(artifacts / "card-wallet-credited.png")
        assert not [e for e in app.console_errors() if "stripe" not in e.lower()]
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
