"""Accounts in the web app (ACC-1…5, ACC-8, ACC-9): the person button, device identity,
register, permits, sign out and in, delete; the server's own messages on failure; forgot
password end to end through a real SMTP server."""
from __future__ import annotations

import re
import secrets

import pytest

from conftest import make_driver
from helpers import App, Accounts, api, demo_permits

PASSWORD = "Parking#2026"


@pytest.fixture()
def app(driver, accounts_server) -> App:
    return App(driver, accounts_server.url).open()


def new_name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def test_acc1_acc3_acc5_acc8_register_keeps_device_permits_sign_out_in_and_delete(app, accounts_server, artifacts):
    acc = Accounts(app)
    acc.open()
    acc.wait_view("signed-out")
    assert acc.state() == {"signedIn": False, "hasDevice": False, "username": None, "view": "signed-out"}
    app.screenshot(artifacts / "accounts-signed-out.png")

    # ACC-8: permits work without an account; the device identity is made when first needed.
    acc.menu("permits")
    acc.wait_view("permits")
    app.wait(lambda: app.el(".permit-set").is_enabled(), message="permits loaded")
    assert acc.state()["hasDevice"] is True
    app.el('.permit-set input[value="green"]').click()
    app.wait(lambda: app.el(".permit-set").get_attribute("data-permits") == "green", message="permit saved")
    app.el("#accounts-back").click()

    # ACC-1/ACC-2: register; the rules tick off while typing, and the server's message is shown.
    app.el(".acc-links .acc-button").click()
    acc.wait_view("register")
    name = new_name("dana")
    acc.fill("register", username=name, password="short")
    rules = {li.get_attribute("data-rule"): li.get_attribute("data-ok") for li in app.els('[data-testid="password-rules"] li')}
    assert rules == {"length": "false", "upper": "false", "digit": "false", "symbol": "false"}
    acc.submit("register")
    status, problem = api(accounts_server.url, "POST", "/v1/accounts", {"username": new_name("x"), "password": "short"})
    assert status == 400
    assert acc.error("register") == problem["detail"]
    acc.fill("register", password=PASSWORD, email=f"{name}@example.test")
    assert all(li.get_attribute("data-ok") == "true" for li in app.els('[data-testid="password-rules"] li'))
    app.screenshot(artifacts / "accounts-register.png")
    acc.submit("register")
    acc.wait_view("account")
    assert app.el('[data-testid="hello"]').text == f"Hello, {name}"
    assert acc.state()["hasDevice"] is False, "the device identity became the account"
    labels = [b.text for b in app.els("#accounts .acc-menu-item")]
    assert labels == ["Update Account", "Your Permits", "Weekly Schedule", "Your Bookings", "Wallet", "Notifications", "Log Out"]
    last = app.els("#accounts-body > *")[-1]
    assert "Delete Account" in last.text and "cannot be undone" in last.text, "Delete Account comes last, with its warning"
    app.screenshot(artifacts / "accounts-signed-in.png")

    # The device's permits moved to the account.
    token = app.js("return localStorage.getItem('waymark.account.token')")
    status, held = api(accounts_server.url, "GET", "/v1/me/permits", token=token)
    assert status == 200 and held == demo_permits(accounts_server.url, ["green"])

    # ACC-3: sign out ends the session and deletes local account data.
    acc.menu("logout")
    acc.wait_view("signed-out")
    assert app.js("return Object.keys(localStorage).filter(k => k.startsWith('waymark.account'))") == []
    assert api(accounts_server.url, "GET", "/v1/me", token=token)[0] == 401

    # Sign in again.
    acc.fill("sign-in", username=name, password=PASSWORD)
    acc.submit("sign-in")
    acc.wait_view("account")
    assert acc.state()["signedIn"] is True and acc.state()["username"] == name

    # ACC-5: delete, with a warning and a confirmation.
    acc.menu("delete")
    acc.wait_view("delete-account")
    acc.fill("delete-account", password=PASSWORD)
    acc.submit("delete-account")
    app.dialog_action("delete-account", "confirm")
    acc.wait_view("signed-out")
    assert acc.state()["signedIn"] is False
    status, _ = api(accounts_server.url, "POST", "/v1/sessions", {"username": name, "password": PASSWORD})
    assert status == 401, "the account is gone"


def test_acc3_wrong_password_shows_the_servers_message(app, accounts_server):
    name = new_name("lee")
    assert api(accounts_server.url, "POST", "/v1/accounts", {"username": name, "password": PASSWORD})[0] == 201
    acc = Accounts(app)
    acc.open()
    acc.wait_view("signed-out")
    acc.fill("sign-in", username=name, password="Wrong#2026")
    acc.submit("sign-in")
    shown = acc.error("sign-in")
    status, problem = api(accounts_server.url, "POST", "/v1/sessions", {"username": new_name("nobody"), "password": "Wrong#2026"})
    assert status == 401
    assert shown == problem["detail"], "a wrong password and an unknown username read the same"
    assert acc.state()["signedIn"] is False


def test_acc10_update_account_about_counter_units_and_username(app, accounts_server, artifacts):
    name = new_name("kim")
    status, session = api(accounts_server.url, "POST", "/v1/accounts", {"username": name, "password": PASSWORD})
    assert status == 201
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', JSON.stringify(arguments[1]))", session["token"], session["user"])
    acc = Accounts(app)
    acc.open()
    acc.wait_view("account")
    acc.menu("update")
    acc.wait_view("update")
    assert app.el('[data-testid="picture"]').get_attribute("src").startswith(accounts_server.url + f"/v1/users/{session['user']['id']}/picture")
    about = app.el('textarea[name="about"]')
    about.send_keys("Parks early.")
    assert app.el('[data-testid="about-count"]').text == "12 / 300"
    assert about.get_attribute("maxlength") == "300"
    app.el('select[name="distance"] option[value="km"]').click()
    acc.submit("profile")
    app.wait(lambda: api(accounts_server.url, "GET", "/v1/me", token=session["token"])[1]["about"] == "Parks early.", message="profile saved")
    me = api(accounts_server.url, "GET", "/v1/me", token=session["token"])[1]
    assert me["units"]["distance"] == "km"
    # ACC-4: a username change needs the current password; the server's message when it is wrong.
    acc.fill("username", newUsername=name + "x", currentPassword="Wrong#2026")
    acc.submit("username")
    assert acc.error("username")
    acc.fill("username", currentPassword=PASSWORD)
    acc.submit("username")
    app.wait(lambda: api(accounts_server.url, "GET", "/v1/me", token=session["token"])[1].get("username") == name + "x", message="username changed")
    app.screenshot(artifacts / "accounts-update.png")


def _code(mailbox, address: str, before: int) -> str:
    import time
    deadline = time.time() + 20
    while time.time() < deadline:
        messages = [m for m in mailbox.messages() if address in str(m["To"])]
        if len(messages) > before:
            msg = messages[-1]
            body = msg.get_payload(decode=True) if not msg.is_multipart() else msg.get_payload(0).get_payload(decode=True)
            found = re.search(r"\b(\d{6})\b", body.decode(errors="replace"))
            assert found, body
            return found.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address}")


def test_acc9_forgot_password_through_real_smtp(app, accounts_server, mailbox, artifacts):
    name = new_name("ana")
    email = f"{name}@example.test"
    assert api(accounts_server.url, "POST", "/v1/accounts", {"username": name, "password": PASSWORD, "email": email})[0] == 201
    acc = Accounts(app)
    acc.open()
    acc.wait_view("signed-out")
    app.el(".acc-links .link-button").click()
    acc.wait_view("forgot")
    before = len([m for m in mailbox.messages() if email in str(m["To"])])
    acc.fill("reset-request", login=email)
    acc.submit("reset-request")
    app.wait(lambda: app.el(".forgot").get_attribute("data-step") == "code", message="code step")
    code = _code(mailbox, email, before)
    wrong = "000000" if code != "000000" else "111111"
    acc.fill("reset-verify", code=wrong)
    acc.submit("reset-verify")
    assert acc.error("reset-verify"), "a wrong code says so"
    app.screenshot(artifacts / "accounts-reset-code.png")
    acc.fill("reset-verify", code=code)
    acc.submit("reset-verify")
    app.wait(lambda: app.el(".forgot").get_attribute("data-step") == "password", message="password step")
    acc.fill("reset-complete", newPassword="Fresh#Start9")
    acc.submit("reset-complete")
    acc.wait_view("account")
    assert app.el('[data-testid="hello"]').text == f"Hello, {name}"
    assert api(accounts_server.url, "POST", "/v1/sessions", {"username": name, "password": "Fresh#Start9"})[0] == 200


def test_acc9_four_wrong_codes_return_to_sign_in(app, accounts_server, mailbox):
    name = new_name("bo")
    email = f"{name}@example.test"
    assert api(accounts_server.url, "POST", "/v1/accounts", {"username": name, "password": PASSWORD, "email": email})[0] == 201
    acc = Accounts(app)
    acc.open()
    acc.wait_view("signed-out")
    app.el(".acc-links .link-button").click()
    acc.wait_view("forgot")
    before = len([m for m in mailbox.messages() if email in str(m["To"])])
    acc.fill("reset-request", login=name)
    acc.submit("reset-request")
    app.wait(lambda: app.el(".forgot").get_attribute("data-step") == "code", message="code step")
    code = _code(mailbox, email, before)
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(3):
        acc.fill("reset-verify", code=wrong)
        acc.submit("reset-verify")
        app.wait(lambda: app.el('form[data-form="reset-verify"] .form-error').text, message="wrong code")
        app.js("document.querySelector('form[data-form=\"reset-verify\"] .form-error').textContent = ''")
    acc.fill("reset-verify", code=wrong)
    acc.submit("reset-verify")
    acc.wait_view("signed-out")
    assert app.el('[data-testid="notice"]').text


def test_accounts_screens_in_dark_theme(accounts_server, artifacts):
    d = make_driver()
    try:
        app = App(d, accounts_server.url)
        app.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        app.open()
        acc = Accounts(app)
        acc.open()
        acc.wait_view("signed-out")
        app.screenshot(artifacts / "accounts-signed-out-dark.png")
        app.el(".acc-links .acc-button").click()
        acc.wait_view("register")
        acc.fill("register", username=new_name("dk"), password="Abc1")
        app.screenshot(artifacts / "accounts-register-dark.png")
        acc.fill("register", password=PASSWORD)
        acc.submit("register")
        acc.wait_view("account")
        app.screenshot(artifacts / "accounts-signed-in-dark.png")
        assert app.console_errors() == []
    finally:
        d.quit()
