"""Starting, killing and reading real Waymark server processes for the reliability suite.

Environment:
  WAYMARK_BINARY              the server executable (default .build/debug/waymark in the repository)
  WAYMARK_TEST_POSTGRES_URL   a PostgreSQL server whose user may create databases; the crash test
                              also runs on PostgreSQL when it is set
  WAYMARK_RELIABILITY_ARTIFACTS  where reports and server logs are kept (default artifacts/reliability)
Each test's knobs (request counts, kills, durations) are environment variables named in the test.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid

import pytest
import requests

REPO = pathlib.Path(__file__).resolve().parents[1]
# The scrape token every server started here is given, so the suites can read /metrics.
METRICS_TOKEN = "reliability-scrape-token"


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def binary() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("WAYMARK_BINARY", ".build/debug/waymark"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        pytest.fail(f"Waymark server binary not found at {path}: build it (swift build) or set WAYMARK_BINARY")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def artifacts_dir() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("WAYMARK_RELIABILITY_ARTIFACTS", REPO / "artifacts" / "reliability"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Postgres:
    """A throwaway database on the server of WAYMARK_TEST_POSTGRES_URL, dropped afterwards."""

    def __init__(self, admin_url: str, prefix: str):
        self.admin_url = admin_url
        self.name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        parts = urllib.parse.urlsplit(admin_url)
        self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name))

    def psql(self, sql: str, url: str | None = None) -> str:
        out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", url or self.url, "-c", sql],
                             capture_output=True, text=True, check=True)
        return out.stdout

    def create(self) -> "Postgres":
        self.psql(f'CREATE DATABASE "{self.name}"', self.admin_url)
        return self

    def drop(self) -> None:
        subprocess.run(["psql", "-X", "-q", "-d", self.admin_url, "-c", f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'],
                       capture_output=True, text=True)


class Server:
    """One `waymark serve --demo` process on a free port. The database (a SQLite file in the
    work directory, or a postgres:// URL) outlives the process, so the server can be killed and
    started again on it."""

    def __init__(self, workdir: pathlib.Path, database: str | None = None, log_level: str = "warning",
                 extra_args: list[str] | None = None, env: dict | None = None):
        self.binary = binary()
        self.workdir = workdir
        self.database = database or str(workdir / "waymark.sqlite")
        self.log_level = log_level
        self.extra_args = extra_args or []
        # Never the real weather service: `demo_server` points it at a recorded one.
        self.env = {**os.environ, "WAYMARK_WEATHER_URL": "off", "WAYMARK_METRICS_TOKEN": METRICS_TOKEN, **(env or {})}
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log_path = workdir / "server.log"
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def is_postgres(self) -> bool:
        return self.database.startswith("postgres")

    def start(self, timeout: float = 120) -> "Server":
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [str(self.binary), "serve", "--demo", "--host", "127.0.0.1", "--port", str(self.port),
             "--web", str(REPO / "Web"), "--database", self.database, "--log-level", self.log_level, *self.extra_args],
            cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        log.close()
        self.starts += 1
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.log_tail()}")
            try:
                if requests.get(f"{self.url}/ready", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server did not become ready: {self.log_tail()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a power cut of the process."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, n: int = 3000) -> str:
        return self.log_text()[-n:]

    def rss_kib(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def gateway_key(self, name: str) -> str:
        out = subprocess.run([str(self.binary), "gateway", "create", name, "--database", self.database,
                              "--log-level", "error"],
                             cwd=self.workdir, capture_output=True, text=True, check=True, env=self.env)
        for line in out.stdout.splitlines():
            if line.strip().startswith("wmg_"):
                return line.strip()
        raise RuntimeError(f"no gateway secret in: {out.stdout!r}")

    def grant_operator(self, login: str) -> None:
        """PRK-17: operators are made on the command line only, as in production."""
        subprocess.run([str(self.binary), "operator", "grant", login, "--database", self.database, "--log-level", "error"],
                       cwd=self.workdir, capture_output=True, text=True, check=True, env=self.env)

    # API helpers
    def get(self, path: str, **kw) -> requests.Response:
        return requests.get(f"{self.url}{path}", timeout=kw.pop("timeout", 30), **kw)

    def json(self, path: str) -> dict:
        r = self.get(path)
        r.raise_for_status()
        return r.json()

    def site(self) -> dict:
        return self.json("/v1/sites")["sites"][0]

    def lots(self) -> list[dict]:
        return self.json(f"/v1/sites/{self.site()['id']}/lots")["lots"]

    def sensors(self) -> list[str]:
        """Every sensor id of the demo site."""
        out = []
        for lot in self.lots():
            out += [s["sensorId"] for s in self.json(f"/v1/lots/{lot['id']}/spots")["spots"]]
        return out

    def metrics(self) -> dict[str, float]:
        """Prometheus samples by `name{labels}`."""
        out = {}
        for line in self.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text.splitlines():
            if line and not line.startswith("#"):
                key, _, value = line.rpartition(" ")
                out[key] = float(value)
        return out

    def ingest_counts(self) -> dict[str, float]:
        return {k: v for k, v in self.metrics().items() if k.startswith("waymark_ingest_events_total")}


class SMTPServer:
    """A real SMTP server (aiosmtpd) keeping what it receives in a maildir, so the password
    reset mails the fuzzer triggers are really sent and received."""

    def __init__(self, workdir: pathlib.Path):
        self.port = free_port()
        self.maildir = workdir / "mail"
        log = open(workdir / "smtpd.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}",
             "-c", "aiosmtpd.handlers.Mailbox", str(self.maildir)],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the SMTP server did not start")

    @property
    def env(self) -> dict:
        return {"WAYMARK_SMTP_HOST": "127.0.0.1", "WAYMARK_SMTP_PORT": str(self.port),
                "WAYMARK_SMTP_FROM": "noreply@waymark.test"}

    def messages(self) -> int:
        new = self.maildir / "new"
        return len(list(new.iterdir())) if new.exists() else 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def iso_millis(ms: int) -> str:
    t = time.gmtime(ms // 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{ms % 1000:03d}Z"


def is_problem(response: requests.Response) -> tuple[bool, str]:
    """A 4xx RFC 9457 answer with the fields the contract requires."""
    if not 400 <= response.status_code < 500:
        return False, f"status {response.status_code}"
    if not response.headers.get("Content-Type", "").startswith("application/problem+json"):
        return False, f"content type {response.headers.get('Content-Type')!r}"
    try:
        body = response.json()
    except ValueError:
        return False, "body is not JSON"
    if not (isinstance(body.get("type"), str) and isinstance(body.get("title"), str) and body.get("status") == response.status_code):
        return False, f"problem fields wrong: {body}"
    return True, ""


def keep_log(server: Server, name: str) -> pathlib.Path:
    target = artifacts_dir() / name
    if server.log_path.exists():
        shutil.copyfile(server.log_path, target)
    return target


def report(name: str, figures: dict) -> None:
    """Prints a test's figures and keeps them as JSON beside the other artifacts."""
    def short(value):
        # Long series go to the JSON only.
        return f"<{len(value)} values in {name}.json>" if isinstance(value, list) and len(value) > 12 else value
    print(f"\n[{name}] " + ", ".join(f"{k}={short(v)}" for k, v in figures.items()))
    (artifacts_dir() / f"{name}.json").write_text(json.dumps(figures, indent=2, sort_keys=True))


ANSI = re.compile(r"\x1b\[[0-9;]*m")
