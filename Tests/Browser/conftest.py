"""Browser tests of the web app: a real Waymark server with the demo site, driven through
Debian's chromium and chromium-driver by Selenium.

Environment:
  WAYMARK_BINARY  the server executable (default .build/debug/waymark in the repository)
  CHROME_BINARY   default /usr/bin/chromium
  CHROMEDRIVER    default /usr/bin/chromedriver
Screenshots go to artifacts/ at the repository root.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"


def _binary() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("WAYMARK_BINARY", ".build/debug/waymark"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        pytest.fail(f"Waymark server binary not found at {path}: build it (swift build) or set WAYMARK_BINARY")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WaymarkServer:
    """A server process on a free port with its own SQLite file and the demo site."""

    def __init__(self, workdir: pathlib.Path, web: pathlib.Path = REPO / "Web", env: dict | None = None):
        self.binary = _binary()
        self.workdir = workdir
        self.web = web
        # Never the real weather service; the shared server points it at the recorded one.
        self.env = {**os.environ, "WAYMARK_WEATHER_URL": "off", **(env or {})}
        self.database = workdir / "waymark.sqlite"
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.sequence = int(time.time() * 1000)
        self._sites = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "WaymarkServer":
        self.port = self.port or _free_port()
        log = open(self.workdir / "server.log", "ab")
        self.process = subprocess.Popen(
            [str(self.binary), "serve", "--demo", "--host", "127.0.0.1", "--port", str(self.port),
             "--web", str(self.web), "--database", str(self.database), "--log-level", "warning"],
            cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {(self.workdir / 'server.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/ready", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.2)
        raise RuntimeError("server did not become ready")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def gateway_key(self, name: str) -> str:
        out = subprocess.run([str(self.binary), "gateway", "create", name, "--database", str(self.database)],
                             cwd=self.workdir, capture_output=True, text=True, check=True, env=self.env)
        for line in out.stdout.splitlines():
            if line.strip().startswith("wmg_"):
                return line.strip()
        raise RuntimeError(f"no gateway secret in: {out.stdout!r}")

    # API helpers
    def get(self, path: str):
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as r:
            return json.loads(r.read())

    @property
    def site(self) -> dict:
        if self._sites is None:
            self._sites = self.get("/v1/sites")["sites"]
        return self._sites[0]

    def lots(self) -> list[dict]:
        return self.get(f"/v1/sites/{self.site['id']}/lots")["lots"]

    def lot(self, code: str) -> dict:
        return next(l for l in self.lots() if l["code"] == code)

    def occupancy(self) -> dict[str, dict]:
        return {o["lotId"]: o for o in self.get(f"/v1/sites/{self.site['id']}/occupancy")["lots"]}

    def spots(self, lot_id: str) -> list[dict]:
        return self.get(f"/v1/lots/{lot_id}/spots")["spots"]

    def states(self, lot_id: str) -> str:
        return self.get(f"/v1/lots/{lot_id}/spot-states")["states"]

    def post_events(self, key: str, changes: list[tuple[str, bool]]) -> dict:
        """Reports sensor changes as a gateway would: (sensorId, occupied) pairs."""
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        events = []
        for sensor, occupied in changes:
            self.sequence += 1
            events.append({"sensorId": sensor, "occupied": occupied, "observedAt": now, "sequence": self.sequence})
        request = urllib.request.Request(
            f"{self.url}/v1/gateway/events", data=json.dumps({"events": events}).encode(), method="POST",
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            result = json.loads(r.read())
        assert result["accepted"] + result["duplicate"] == len(events), result
        return result

    def fill_lot(self, key: str, lot_code: str, fraction: float) -> dict:
        """Sets a lot's taken share to about `fraction` by reporting sensors occupied or free."""
        lot = self.lot(lot_code)
        spots = self.spots(lot["id"])
        states = self.states(lot["id"])
        target = int(round(fraction * len(spots)))
        changes = [(s["sensorId"], i < target) for i, s in enumerate(spots)
                   if (states[s["ordinal"]] == "o") != (i < target) and states[s["ordinal"]] in "fo"]
        if changes:
            self.post_events(key, changes)
        return lot


@pytest.fixture(scope="session")
def weather():
    """Open-Meteo as recorded, on a local port: the browser tests never reach the real one."""
    from recorded_weather import RecordedWeather
    w = RecordedWeather()
    yield w
    w.stop()


@pytest.fixture(scope="session")
def server(weather):
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-"))
    s = WaymarkServer(workdir, env={"WAYMARK_WEATHER_URL": weather.url}).start()
    s.key = s.gateway_key("browser-tests")
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(autouse=True)
def _server_still_running(request):
    """Fails fast, with the server's last words, if the shared server has died or hangs."""
    if "server" in request.fixturenames:
        s = request.getfixturevalue("server")
        if s.process is None or s.process.poll() is not None:
            log = (s.workdir / "server.log").read_text(errors="replace")[-2000:]
            pytest.fail(f"the Waymark server is not running any more:\n{log}")
        try:
            urllib.request.urlopen(f"{s.url}/health", timeout=10).close()
        except OSError as error:
            pytest.fail(f"the Waymark server (pid {s.process.pid}) no longer answers /health: {error}")
    yield


@pytest.fixture()
def own_server():
    """A server only this test uses (it may stop it)."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-own-"))
    s = WaymarkServer(workdir).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def make_driver(width=390, height=844, pixel_ratio=2, touch=True):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROME_BINARY", "/usr/bin/chromium")
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--lang=en-US",
                "--disable-features=Translate,MediaRouter", "--no-first-run"]:
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": pixel_ratio, "touch": touch}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_script_timeout(30)
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture()
def driver():
    d = make_driver()
    yield d
    d.quit()


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def mailbox():
    """A real SMTP server (aiosmtpd) writing every message it receives to a maildir."""
    import mailbox as mb
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-mail-"))
    port = _free_port()
    log = open(workdir / "smtpd.log", "ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}", "-c", "aiosmtpd.handlers.Mailbox", str(workdir / "mail")],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        raise RuntimeError("the SMTP server did not start")

    class Mailbox:
        host, smtp_port = "127.0.0.1", port

        def messages(self):
            return list(mb.Maildir(str(workdir / "mail"), create=False)) if (workdir / "mail" / "new").exists() else []

    yield Mailbox()
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def accounts_server(mailbox):
    """A server with mail going to the test SMTP server, and a cheap bcrypt cost for speed."""
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-browser-accounts-"))
    s = WaymarkServer(workdir, env={
        "WAYMARK_PASSWORD_COST": "4", "WAYMARK_SMTP_HOST": mailbox.host, "WAYMARK_SMTP_PORT": str(mailbox.smtp_port),
        "WAYMARK_SMTP_FROM": "noreply@waymark.test"}).start()
    yield s
    s.stop()
    shutil.rmtree(workdir, ignore_errors=True)
