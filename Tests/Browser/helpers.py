"""Driving the web app: waiting for it, reading its test surface, touch and wheel input, and
an accessibility audit (axe-core) of every screen the tests visit."""
from __future__ import annotations

import math
import pathlib
import time

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver


def _axe_source() -> str:
    import axe_selenium_python
    return (pathlib.Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf8")


# Screens already audited in this run: the same screen in the same state is audited once.
_AUDITED: set[tuple] = set()
_AXE: list[str] = []

# What a screen is, for the audit: path, open panels and sheets, the dialog, size and theme.
_SCREEN = r"""
const q = (s) => document.querySelector(s);
const shown = (s) => { const e = q(s); return !!e && !e.hidden; };
return [location.pathname.replace(/\/(lots|bookings)\/[^/]+/, '/$1/*'), q('#accounts')?.dataset.view || '',
  shown('#lot-card'), shown('#finder'), shown('#hold-bar'), q('#dialog')?.open ? q('#dialog').dataset.name : '',
  innerWidth, matchMedia('(prefers-color-scheme: dark)').matches].join('|');
"""


class AccessibilityError(AssertionError):
    pass


class App:
    # Serious and critical findings fail the test; the rest are for people to read in the report.
    AUDIT_IMPACTS = ("serious", "critical")

    def __init__(self, driver: WebDriver, base_url: str, audit: bool = True):
        self.d = driver
        self.base = base_url
        self.auditing = audit

    # Loading
    def open(self, path: str = "/") -> "App":
        self.d.get(self.base + path)
        self.wait_ready()
        self.audit()
        return self

    # Accessibility
    def audit(self, force: bool = False) -> list[dict]:
        """Runs axe-core's WCAG 2 A and AA rules on the page as it is now (once per distinct screen
        in the run, unless `force`) and raises AccessibilityError listing rule, target and help
        of every serious or critical violation."""
        if not self.auditing:
            return []
        screen = self.js(_SCREEN)
        if not force and screen in _AUDITED:
            return []
        _AUDITED.add(screen)
        if not _AXE:
            _AXE.append(_axe_source())
        if not self.js("return !!window.axe"):
            self.js(_AXE[0])
        result = self.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})"
            ".then((r) => done(r.violations), (e) => done(String(e)));")
        assert isinstance(result, list), f"axe did not run: {result}"
        bad = [v for v in result if v.get("impact") in self.AUDIT_IMPACTS]
        if bad:
            lines = [f"accessibility: {len(bad)} serious or critical violation(s) on {screen}:"]
            for v in bad:
                for node in v["nodes"][:8]:
                    lines.append(f"  [{v['impact']}] {v['id']}: {' '.join(map(str, node['target']))} - {v['help']}")
            raise AccessibilityError("\n".join(lines))
        return result

    def wait_ready(self) -> None:
        ok = self.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const t = setInterval(() => { if (window.waymark) { clearInterval(t);"
            "  window.waymark.ready.then(() => done(true), (e) => done(String(e))); } }, 20);")
        assert ok is True, f"app did not start: {ok}"

    def wait_still(self, css: str, timeout: float = 5) -> None:
        """Waits until the element and what it holds have finished moving (a panel sliding in, which
        starts once its "entering" class is gone): a click computed while it moves lands on whatever
        arrives under that point."""
        self.wait(lambda: self.js("const e = document.querySelector(arguments[0]);"
                                  "return !!e && !e.classList.contains('entering')"
                                  "  && e.getAnimations({subtree: true}).every((a) => a.playState !== 'running');", css),
                  timeout=timeout, message=f"{css} standing still")

    def js(self, script: str, *args):
        return self.d.execute_script(script, *args)

    def wait(self, predicate, timeout: float = 10, message: str = "condition"):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            try:
                last = predicate()
            except (StaleElementReferenceException, NoSuchElementException):
                last = None  # the app re-rendered the element between lookup and read, or is redrawing it
            if last:
                return last
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {message} (last value {last!r})")

    # Test surface
    def view(self) -> dict:
        return self.js("return window.waymark.map.getView()")

    def set_view(self, **view) -> None:
        self.js("window.waymark.map.setView(arguments[0])", view)
        self.frame()

    def frame(self) -> None:
        """Waits for two animation frames, so what was asked for has been drawn."""
        self.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")

    def pins(self) -> list[dict]:
        return self.js("return window.waymark.pins()")

    def pin(self, code: str) -> dict:
        return next(p for p in self.pins() if p["code"] == code)

    def state(self) -> dict:
        return self.js("return window.waymark.state")

    def palette(self) -> dict:
        return self.js("return window.waymark.palette()")

    def spot_count(self) -> int:
        return self.js("return window.waymark.visibleSpotCount()")

    def spot_colour(self, lot_id: str, ordinal: int):
        return self.js("return window.waymark.spotColour(arguments[0], arguments[1])", lot_id, ordinal)

    def el(self, css: str):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def els(self, css: str):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def button(self, label: str):
        return self.el(f'button[aria-label="{label}"]')

    def dialog(self, name: str):
        return self.wait(lambda: self.js(
            "const d = document.getElementById('dialog'); return d.open && d.dataset.name === arguments[0] ? d : null;", name),
            message=f"dialog {name}")

    def dialog_action(self, name: str, action: str) -> None:
        self.dialog(name)
        self.el(f'#dialog .dialog-button[data-action="{action}"]').click()
        self.wait(lambda: not self.js("return document.getElementById('dialog').open && "
                                      "document.getElementById('dialog').dataset.name === arguments[0]", name),
                  message=f"dialog {name} to close")

    # Input through the DevTools protocol, as a phone's touch screen or a mouse wheel would send it.
    def cdp(self, cmd: str, params: dict):
        return self.d.execute_cdp_cmd(cmd, params)

    def tap(self, x: float, y: float) -> None:
        self.cdp("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
        self.cdp("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def two_finger(self, center: tuple[float, float], start_gap: float, end_gap: float,
                   start_angle: float = 0, end_angle: float = 0, steps: int = 12) -> None:
        """Two fingers around a centre: the gap changes for a pinch, the angle (degrees) for a twist."""
        cx, cy = center

        def points(gap, angle):
            a = math.radians(angle)
            dx, dy = math.cos(a) * gap / 2, math.sin(a) * gap / 2
            return [{"x": cx - dx, "y": cy - dy, "id": 1}, {"x": cx + dx, "y": cy + dy, "id": 2}]

        self.cdp("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start_gap, start_angle)})
        for i in range(1, steps + 1):
            k = i / steps
            self.cdp("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(
                start_gap + (end_gap - start_gap) * k, start_angle + (end_angle - start_angle) * k)})
        self.cdp("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.frame()

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 10) -> None:
        (x0, y0), (x1, y1) = start, end
        self.cdp("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0, "id": 1}]})
        for i in range(1, steps + 1):
            k = i / steps
            self.cdp("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x0 + (x1 - x0) * k, "y": y0 + (y1 - y0) * k, "id": 1}]})
            time.sleep(0.02)
        time.sleep(0.1)  # hold still before lifting, so no fling follows
        self.cdp("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.frame()

    def long_press_drag(self, start: tuple[float, float], end: tuple[float, float] | None = None,
                        hold: float = 0.7, steps: int = 6, touch: bool = True) -> None:
        """WebDriver pointer actions: press at `start`, hold still, then drag to `end` and lift,
        as a finger (touch) or a mouse would."""
        pointer = PointerInput(interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE, "finger" if touch else "mouse")
        actions = ActionBuilder(self.d, mouse=pointer)
        (x0, y0) = start
        (x1, y1) = end or start
        p = actions.pointer_action
        p.move_to_location(int(x0), int(y0)).pointer_down().pause(hold)
        for i in range(1, steps + 1):
            k = i / steps
            p.move_to_location(int(x0 + (x1 - x0) * k), int(y0 + (y1 - y0) * k)).pause(0.03)
        p.pause(0.1).pointer_up()
        actions.perform()

    def press(self, point: tuple[float, float], touch: bool = True) -> None:
        """A short tap with WebDriver pointer actions."""
        pointer = PointerInput(interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE, "finger" if touch else "mouse")
        actions = ActionBuilder(self.d, mouse=pointer)
        actions.pointer_action.move_to_location(int(point[0]), int(point[1])).pointer_down().pause(0.05).pointer_up()
        actions.perform()

    def wheel(self, x: float, y: float, delta_y: float, times: int = 1) -> None:
        for _ in range(times):
            self.cdp("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y})
        self.frame()

    def screenshot(self, path) -> None:
        time.sleep(0.4)  # let sheets and toasts finish their transitions
        self.d.save_screenshot(str(path))
        self.audit()

    def console_errors(self) -> list[str]:
        """Console errors other than map tiles failing to load (the sandbox has no internet)."""
        return [e["message"] for e in self.d.get_log("browser")
                if e["level"] == "SEVERE" and "tile.openstreetmap.org" not in e["message"]]


def api(base: str, method: str, path: str, body=None, token: str | None = None):
    """A JSON request straight to the API: (status, answer)."""
    status, _, answer = api_response(base, method, path, body, token)
    return status, answer


def demo_permits(base: str, codes: list[str]) -> dict:
    """A `PUT /v1/me/permits` body holding the demo campus's permits by code ("handicap" is the
    placard, held without a campus)."""
    _, answer = api(base, "GET", "/v1/sites")
    site = next(s["id"] for s in answer["sites"] if s["code"] == "csuf")
    return {"permits": [{"permit": c} if c == "handicap" else {"siteId": site, "permit": c} for c in codes]}


def permit_codes(answer: dict) -> list[str]:
    """The codes of a permits answer, in its order."""
    return [p["permit"] for p in answer["permits"]]


def api_response(base: str, method: str, path: str, body=None, token: str | None = None):
    """A JSON request straight to the API: (status, content type, answer)."""
    import json
    import urllib.error
    import urllib.request
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            raw, status, ctype = r.read(), r.status, r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        raw, status, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
    return status, ctype, (json.loads(raw) if raw else None)


class Accounts:
    """The Accounts panel of the web app."""

    def __init__(self, app: App):
        self.app = app

    def state(self) -> dict:
        return self.app.js("return window.waymark.account()")

    def wait_view(self, name: str, timeout: float = 15) -> None:
        """Waits for the screen and for the panel to stop sliding in: a click while it moves
        lands where the button was a frame ago, or on nothing."""
        self.app.wait(lambda: self.state()["view"] == name and self.settled(), timeout=timeout, message=f"Accounts screen {name}")
        self.app.audit()

    def settled(self) -> bool:
        return self.app.js("const p = document.getElementById('accounts');"
                           "return !p.classList.contains('entering') && p.getAnimations().length === 0")

    def open(self) -> None:
        """Opens the person's own space: "You" in the navigation."""
        self.app.el("#nav-me").click()
        self.app.wait_still("#accounts")

    def fill(self, form: str, **values) -> None:
        for name, value in values.items():
            field = self.app.el(f'form[data-form="{form}"] [name="{name}"]')
            field.clear()
            field.send_keys(value)

    def submit(self, form: str) -> None:
        self.app.el(f'form[data-form="{form}"] button[type="submit"]').click()

    def error(self, form: str) -> str:
        return self.app.wait(lambda: self.app.el(f'form[data-form="{form}"] .form-error').text, message=f"{form} error")

    def menu(self, action: str) -> None:
        self.app.el(f'#accounts button[data-action="{action}"]').click()


def new_account(base: str, prefix: str, password: str, **extra) -> dict:
    """Registers an account named `prefix` and a few random hex digits: its session."""
    import secrets
    status, session = api(base, "POST", "/v1/accounts", {"username": f"{prefix}{secrets.token_hex(3)}", "password": password, **extra})
    assert status == 201, session
    return session


def use_session(app: App, session: dict) -> None:
    """Keeps the session in the browser as the app does after signing in (the next load uses it)."""
    import json
    app.js("localStorage.setItem('waymark.account.token', arguments[0]);"
           "localStorage.setItem('waymark.account.me', arguments[1]);", session["token"], json.dumps(session["user"]))


def answer_json(handler, data: bytes, status: int = 200) -> None:
    """What the local stand-ins for third parties (the weather, the card processor) answer with:
    `data` as JSON, with its length, on a `BaseHTTPRequestHandler`."""
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
