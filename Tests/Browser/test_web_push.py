"""Web Push in the web app (PRK-22): a push delivered to the service worker shows a notification,
and a click on it opens the screen it is about; the inbox's "Alerts on this device" section says
plainly what this browser can do, and which kinds of notification are pushed.

Chromium's DevTools protocol stands in for the browser's push service
(ServiceWorker.deliverPushMessage). Headless Chromium keeps the notifications a worker shows
(getNotifications() lists them), but nobody can click them, and the protocol has no command that
does: the tests run the worker's own notificationclick listener with a NotificationEvent made
inside the worker (Runtime.evaluate in the worker's target). That does everything a click does
except bringing a window to the front or opening a new one, which only a person's click allows.

The tests of the inbox's section need a server with the push endpoints; those of the service
worker need only the web app.
"""
from __future__ import annotations

import base64
import json
import pathlib
import re
import secrets
import shutil
import tempfile
import time
import urllib.request
import uuid
from datetime import datetime, timezone

import pytest
import websocket

from conftest import WaymarkServer, make_driver
from helpers import App, Accounts, api

PASSWORD = "Parking#2026"
KINDS = ["hold-asking", "hold-moved", "hold-expired", "lot-almost-full", "lot-full", "space-freed", "booking-cancelled", "plan-unreachable", "trail-suggestions",
         "friend-request", "friend-accepted", "thread-message", "time-to-leave"]
GENERIC = {"title": "Waymark", "body": "Open Waymark to see what’s new", "url": "/me/inbox"}


@pytest.fixture(scope="module")
def push_server():
    """A server that would accept a local push service (the tests' browsers have none)."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-push-"))
    s = WaymarkServer(workdir, env={"WAYMARK_PASSWORD_COST": "4", "WAYMARK_PUSH_HOSTS": "127.0.0.1,localhost",
                                    "WAYMARK_PUSH_CONTACT": "mailto:ops@example.org"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


class DevTools:
    """A DevTools connection of our own to the page (chromedriver passes commands, not events)."""

    def __init__(self, driver, origin: str):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/list", timeout=10) as r:
            targets = json.loads(r.read())
        page = next(t for t in targets if t["type"] == "page" and t["url"].startswith(origin))
        # Chromium refuses DevTools connections that name an Origin it was not told to allow.
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.origin = origin
        self.last_id = 0
        self.events: list[dict] = []
        self._worker_session: str | None = None

    def close(self) -> None:
        self.ws.close()

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.last_id:
                assert "error" not in reply, f"{method}: {reply['error']}"
                return reply.get("result", {})
            self.events.append(reply)

    def event(self, method: str, where=lambda params: True, timeout: float = 20) -> dict:
        """The first event `method` (seen already, or still to come) whose params satisfy `where`."""
        deadline = time.time() + timeout
        seen = 0
        while True:
            for e in self.events[seen:]:
                if e.get("method") == method and where(e.get("params", {})):
                    return e["params"]
            seen = len(self.events)
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"no {method} event within {timeout} s")
            self.ws.settimeout(left)
            try:
                self.events.append(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                pass
            finally:
                self.ws.settimeout(30)

    def registration_id(self) -> str:
        """The id of the app's service worker registration (scope: the origin's root)."""
        self.call("ServiceWorker.enable")
        scope = self.origin + "/"
        found = self.event("ServiceWorker.workerRegistrationUpdated", lambda p: any(
            r["scopeURL"] == scope and not r["isDeleted"] for r in p["registrations"]))
        return next(r["registrationId"] for r in found["registrations"] if r["scopeURL"] == scope)

    def push(self, registration: str, data: str, timeout: float = 15) -> None:
        """What a push service does: hands the worker a push message with `data` as its payload;
        returns once the worker's showNotification call has finished. (Polling getNotifications()
        while a notification was being shown lost that notification now and then in these tests,
        so they wait for the call to finish before asking what is shown.)"""
        count = "self.registration.showNotification.finished"
        before = self.in_worker(
            f"(() => {{ const r = self.registration; if (!('finished' in r.showNotification)) {{ const show = r.showNotification;"
            f" const watched = (...a) => show.apply(r, a).finally(() => {{ watched.finished += 1; }});"
            f" watched.finished = 0; r.showNotification = watched; }} return {count}; }})()")
        self.call("ServiceWorker.deliverPushMessage", {"origin": self.origin, "registrationId": registration, "data": data})
        deadline = time.time() + timeout
        while self.in_worker(count) <= before:
            assert time.time() < deadline, f"the worker showed nothing for the push {data!r}"
            time.sleep(0.1)

    def in_worker(self, expression: str):
        """Evaluates `expression` in the service worker (awaited when it is a promise)."""
        if self._worker_session is None:
            self.call("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True})
            attached = self.event("Target.attachedToTarget", lambda p: p["targetInfo"]["type"] == "service_worker"
                                  and p["targetInfo"]["url"] == self.origin + "/sw.js")
            self._worker_session = attached["sessionId"]
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                           session=self._worker_session)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def click_notification(self, tag: str) -> None:
        """Runs the worker's notificationclick listener for the shown notification `tag`, as a click
        on it would. An event made by script may not ask the worker to wait (waitUntil throws after
        the listener has started its work), and may not bring a window forward; the rest runs."""
        done = self.in_worker(
            "(async () => { const [n] = await self.registration.getNotifications({tag: %s});"
            " if (!n) return false;"
            " self.dispatchEvent(new NotificationEvent('notificationclick', {notification: n})); return true; })()"
            % json.dumps(tag))
        assert done, f"no notification with tag {tag!r} to click"


def ready_for_push(driver, server, path: str = "/") -> tuple[App, DevTools, str]:
    """The app open at `path` with its service worker in control and notifications allowed."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["notifications"]})
    app = App(driver, server.url).open(path)
    app.wait(lambda: app.js("return !!navigator.serviceWorker.controller"), timeout=20, message="service worker in control")
    assert app.js("return Notification.permission") == "granted"
    scope = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then((r) => done(r.active && r.scope));")
    assert scope == server.url + "/"
    tools = DevTools(driver, server.url)
    registration = tools.registration_id()
    # The worker learns of the permission on its own time; a push before that could not be shown.
    app.wait(lambda: tools.in_worker("Notification.permission") == "granted", message="the worker allowed to notify")
    return app, tools, registration


def shown_notifications(app: App) -> list[dict]:
    return app.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => done(ns.map((n) => ("
        "{title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon, timestamp: n.timestamp}))),"
        " (e) => done(String(e)));")


def path(app: App) -> str:
    return app.js("return location.pathname")


def card_lot(app: App):
    return app.js("const c = document.getElementById('lot-card'); return c && !c.hidden ? c.dataset.lotId : null")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ---- The service worker: a push shows a notification, a click opens its screen ----

def test_prk22_a_pushed_notification_shows_and_a_click_opens_its_lot(driver, push_server):
    """PRK-22: the server's payload becomes a notification (title, body, the app's icon, tagged with
    the notification's id so a repeat replaces it); a click closes it and brings the open window
    to the lot's screen."""
    app, tools, registration = ready_for_push(driver, push_server)
    try:
        lot = push_server.lot("A")
        payload = {"id": str(uuid.uuid4()), "kind": "lot-full", "title": f"{lot['name']} is full",
                   "body": "No spaces are free there now.", "url": f"/lots/{lot['id']}", "createdAt": now_iso()}
        tools.push(registration, json.dumps(payload))
        shown = [n for n in shown_notifications(app) if n["tag"] == payload["id"]]
        assert len(shown) == 1
        n = shown[0]
        assert (n["title"], n["body"]) == (payload["title"], payload["body"])
        assert n["data"] == {"url": payload["url"], "id": payload["id"], "kind": "lot-full"}
        assert n["icon"] == push_server.url + "/icons/icon-192.png"
        with urllib.request.urlopen(n["icon"]) as r:
            assert r.status == 200
        assert abs(n["timestamp"] - time.time() * 1000) < 120_000, "shown with the time it was made"
        # The same notification pushed again replaces the one shown (same tag), never doubles it.
        tools.push(registration, json.dumps(payload))
        assert len([x for x in shown_notifications(app) if x["tag"] == payload["id"]]) == 1

        assert path(app) == "/" and card_lot(app) is None
        tools.click_notification(payload["id"])
        app.wait(lambda: path(app) == f"/lots/{lot['id']}", timeout=15, message="the window going to the lot")
        app.wait_ready()
        app.wait(lambda: card_lot(app) == lot["id"], message="the lot's card")
        assert app.js("return document.getElementById('lot-card-title').textContent") == lot["name"]
        assert not [x for x in shown_notifications(app) if x["tag"] == payload["id"]], "a click closes the notification"
        assert app.console_errors() == []
    finally:
        tools.close()


def test_prk22_a_push_without_a_usable_payload_still_says_to_look_and_leads_to_the_inbox(driver, push_server):
    """PRK-22: a push with no payload, one that is not JSON, one without a title: each shows the
    generic "Waymark" notification leading to the inbox (several of them show as one); a url that
    is not a path of this app (another site, a protocol-relative address) leads to the inbox too;
    a click opens the inbox."""
    app, tools, registration = ready_for_push(driver, push_server)
    try:
        for data in ["", "not json {", json.dumps({"kind": "lot-full", "body": "no title"}), json.dumps(["a", "list"])]:
            tools.in_worker("self.registration.getNotifications().then((ns) => ns.forEach((n) => n.close()))")
            app.wait(lambda: shown_notifications(app) == [], message="none shown")
            tools.push(registration, data)
            n = shown_notifications(app)
            assert n == [{"title": GENERIC["title"], "body": GENERIC["body"], "tag": "waymark", "icon": push_server.url + "/icons/icon-192.png",
                          "data": {"url": "/me/inbox", "id": None, "kind": None}, "timestamp": n[0]["timestamp"]}], n
        # Several of them show as one.
        tools.push(registration, "")
        assert [x["tag"] for x in shown_notifications(app)] == ["waymark"]

        for i, url in enumerate(["https://elsewhere.example/lots/x", "//elsewhere.example/lots/x", "/\\elsewhere.example",
                                 "javascript:alert(1)", 42]):
            tools.push(registration, json.dumps({"id": f"away-{i}", "kind": "lot-full", "title": "Away", "body": "…", "url": url}))
        away = [n for n in shown_notifications(app) if n["tag"].startswith("away-")]
        assert len(away) == 5
        assert {n["data"]["url"] for n in away} == {"/me/inbox"}

        # The worker's rule for where a click leads, on its own.
        cases = {"/lots/abc": "/lots/abc", "/me/bookings/b1?x=1#top": "/me/bookings/b1?x=1#top", "/me/inbox": "/me/inbox",
                 "https://elsewhere.example/": "/me/inbox", "//elsewhere.example/me": "/me/inbox",
                 push_server.url + "/lots/abc": "/me/inbox", "lots/abc": "/me/inbox", "": "/me/inbox"}
        got = tools.in_worker(f"Object.fromEntries(Object.keys({json.dumps(cases)}).map((u) => [u, screenFor({{url: u}})]))")
        assert got == cases
        assert tools.in_worker("[screenFor(null), screenFor({}), screenFor({url: null})]") == ["/me/inbox"] * 3

        tools.click_notification("away-0")
        app.wait(lambda: path(app) == "/me/inbox", timeout=15, message="the window going to the inbox")
        app.wait_ready()
        Accounts(app).wait_view("notifications")
        assert not [n for n in shown_notifications(app) if n["tag"] == "away-0"]
        assert app.console_errors() == []
    finally:
        tools.close()


# ---- The inbox's "Alerts on this device" (needs the server's push endpoints) ----

def register(server) -> dict:
    status, session = api(server.url, "POST", "/v1/accounts", {"username": f"pusher{secrets.token_hex(3)}", "password": PASSWORD})
    assert status == 201, session
    return session


def sign_in(app: App, session: dict) -> None:
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", session["token"], json.dumps(session["user"]))


def open_inbox(app: App) -> None:
    app.open("/me/inbox")
    Accounts(app).wait_view("notifications")


def push_state(app: App) -> str | None:
    return app.js("return document.querySelector('[data-testid=push]')?.dataset.state ?? null")


def wait_state(app: App, states: tuple[str, ...], timeout: float = 15) -> str:
    return app.wait(lambda: (lambda s: s if s in states else None)(push_state(app)), timeout=timeout,
                    message=f"the section in state {states}")


def said(app: App) -> str:
    return app.el("[data-testid=push-state]").text


def switch(app: App):
    return app.el("[data-testid=push-switch]")


def local_subscription(app: App):
    return app.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())"
        ".then((s) => done(s && s.endpoint), (e) => done('error: ' + e));")


def show_section(app: App) -> None:
    app.js("document.querySelector('[data-testid=push]').scrollIntoView({block: 'start'})")


def assert_plain_words(app: App) -> None:
    """What the section says holds no ids, kind names or ISO timestamps."""
    text = app.el("[data-testid=push]").text
    for kind in KINDS:
        assert kind not in text, text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", text), text
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", text), text


def test_prk22_alerts_on_this_device_are_offered_to_whoever_the_server_knows(driver, push_server):
    """PRK-22: a visitor the server does not know yet is asked to sign in and offered no alerts;
    a guest with a device identity (whose hold may ask "Was it you?") and a signed-in person are."""
    app = App(driver, push_server.url)
    open_inbox(app)
    assert app.js("return document.querySelector('[data-testid=push]')") is None
    status, device = api(push_server.url, "POST", "/v1/devices")
    assert status == 201, device
    app.js("localStorage.setItem('waymark.device.token', arguments[0]);", device["token"])
    open_inbox(app)
    app.wait(lambda: app.el("[data-testid=push]"), message="the section for a guest")
    app.js("localStorage.removeItem('waymark.device.token');")
    sign_in(app, register(push_server))
    open_inbox(app)
    section = app.wait(lambda: app.el("[data-testid=push]"), message="the section")
    assert section.find_element("css selector", "h3").get_attribute("textContent") == "Alerts on this device"


def test_prk22_turning_alerts_on_without_a_reachable_push_service_says_so_and_keeps_nothing(driver, push_server, artifacts):
    """PRK-22: headless Chromium reaches no push service, so subscribing fails: the section says the
    browser's notification service can't be reached and to try later, the switch stays off and can be
    pressed again, and neither the browser nor the server keeps a subscription."""
    session = register(push_server)
    token = session["token"]
    status, key = api(push_server.url, "GET", "/v1/push/key")
    assert status == 200 and len(base64.urlsafe_b64decode(key["publicKey"] + "=" * (-len(key["publicKey"]) % 4))) == 65
    app = App(driver, push_server.url).open()
    app.wait(lambda: app.js("return !!navigator.serviceWorker.controller"), timeout=20, message="service worker in control")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": push_server.url, "permissions": ["notifications"]})
    sign_in(app, session)
    open_inbox(app)
    assert wait_state(app, ("off",)) == "off"
    assert said(app).startswith("Off.")
    assert switch(app).get_attribute("aria-checked") == "false" and switch(app).is_enabled()
    assert switch(app).get_attribute("role") == "switch"

    switch(app).click()
    assert wait_state(app, ("unreachable", "on", "error"), timeout=45) == "unreachable", said(app)
    assert "notification service can’t be reached" in said(app) and "Try again later" in said(app)
    assert switch(app).get_attribute("aria-checked") == "false" and switch(app).is_enabled()
    assert local_subscription(app) is None, "no subscription left in the browser"
    status, listed = api(push_server.url, "GET", "/v1/me/push-subscriptions", token=token)
    assert status == 200 and listed["subscriptions"] == [], "none on the server"
    assert_plain_words(app)
    show_section(app)
    app.screenshot(artifacts / "push-unreachable-phone.png")
    app.audit(force=True)
    assert app.console_errors() == []


def test_prk22_blocked_or_unsupported_notifications_say_what_to_do(driver, push_server, artifacts):
    """PRK-22: notifications blocked for the site: the section says how to allow them in the
    browser's settings and the switch can't be pressed; a browser without Web Push is told so (and
    what works on an iPhone), with no switch. "Tell me when…" is there in both."""
    session = register(push_server)
    app = App(driver, push_server.url).open()
    driver.execute_cdp_cmd("Browser.setPermission", {"origin": push_server.url, "permission": {"name": "notifications"},
                                                     "setting": "denied"})
    assert app.js("return Notification.permission") == "denied"
    sign_in(app, session)
    open_inbox(app)
    assert wait_state(app, ("denied",)) == "denied"
    assert "blocked" in said(app) and "set Notifications to Allow" in said(app), said(app)
    assert not switch(app).is_enabled() and switch(app).get_attribute("aria-checked") == "false"
    app.wait(lambda: len(app.els("[data-testid=push-kinds] input[type=checkbox]")) == len(KINDS), message="the kinds")
    assert_plain_words(app)
    show_section(app)
    app.screenshot(artifacts / "push-blocked-phone.png")
    app.audit(force=True)

    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PushManager;"})
    open_inbox(app)
    assert wait_state(app, ("unsupported",)) == "unsupported"
    assert "This browser can’t show alerts from Waymark" in said(app) and "Home Screen" in said(app)
    assert not switch(app).is_displayed()
    app.wait(lambda: len(app.els("[data-testid=push-kinds] input[type=checkbox]")) == len(KINDS), message="the kinds")
    app.audit(force=True)
    assert app.console_errors() == []


def test_prk22_tell_me_when_choices_load_and_a_change_is_kept(push_server, artifacts):
    """PRK-22: the kinds the server pushes, in its order and in its words, all on at first; switching
    one off is saved at once (the status says so, the server has it) and is kept after a reload."""
    session = register(push_server)
    token = session["token"]
    status, preferences = api(push_server.url, "GET", "/v1/me/push-preferences", token=token)
    assert status == 200 and [k["kind"] for k in preferences["kinds"]] == KINDS
    labels = {k["kind"]: k["label"] for k in preferences["kinds"]}
    d = make_driver(width=1280, height=800, pixel_ratio=1, touch=False)
    try:
        app = App(d, push_server.url).open()
        sign_in(app, session)
        open_inbox(app)

        def boxes():
            found = app.els("[data-testid=push-kinds] input[type=checkbox]")
            return found if len(found) == len(KINDS) and app.el("[data-testid=push-kinds]").is_enabled() else None
        shown = app.wait(boxes, message="the kinds")
        assert [b.get_attribute("value") for b in shown] == KINDS
        assert all(b.is_selected() for b in shown)
        assert [b.find_element("xpath", "..").text for b in shown] == [labels[k] for k in KINDS]
        assert app.el("[data-testid=push-kinds] legend").text == "Tell me when…"
        assert_plain_words(app)
        show_section(app)
        app.screenshot(artifacts / "push-kinds-desktop.png")

        app.el("[data-testid=push-kinds] input[value=lot-full]").click()
        app.wait(lambda: app.el("[data-testid=push-kinds-status]").text == "Saved", message="saved")
        status, preferences = api(push_server.url, "GET", "/v1/me/push-preferences", token=token)
        assert {k["kind"]: k["enabled"] for k in preferences["kinds"]} == {k: k != "lot-full" for k in KINDS}

        open_inbox(app)
        shown = app.wait(boxes, message="the kinds after a reload")
        assert {b.get_attribute("value"): b.is_selected() for b in shown} == {k: k != "lot-full" for k in KINDS}

        app.el("[data-testid=push-kinds] input[value=lot-full]").click()
        app.wait(lambda: app.el("[data-testid=push-kinds-status]").text == "Saved", message="saved again")
        status, preferences = api(push_server.url, "GET", "/v1/me/push-preferences", token=token)
        assert all(k["enabled"] for k in preferences["kinds"])
        assert app.console_errors() == []
    finally:
        d.quit()
