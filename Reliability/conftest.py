"""The reliability suite (issue 6, QLT-2): fuzzing, bad input, crash safety, soak and security
checks against real `waymark serve` processes. See RELIABILITY.md at the repository root; the
environment variables are described in harness.py."""
from __future__ import annotations

import pathlib
import shutil
import sys
import tempfile

import pytest

from harness import Server, SMTPServer, raise_nofile

# Open-Meteo as recorded, served locally: the same stand-in the browser tests use.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "Browser"))
from recorded_weather import RecordedWeather  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _open_files():
    raise_nofile()


@pytest.fixture()
def workdir():
    path = pathlib.Path(tempfile.mkdtemp(prefix="waymark-rel-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def demo_server():
    """A server with the demo site, a gateway key and a real SMTP server for its mail, shared by
    a module's tests. Passwords use a low bcrypt cost, and neither new identities nor writes
    are rate limited: the suite judges behaviour, not hashing speed, the fuzzer makes thousands
    of guests and writes, and a 429 would hide what the bad-input and race tests look for.
    `test_security.py` checks the limits on a server with the defaults."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="waymark-rel-"))
    smtp = SMTPServer(path)
    weather = RecordedWeather()
    server = Server(path, env={**smtp.env, "WAYMARK_PASSWORD_COST": "4", "WAYMARK_IDENTITY_LIMIT": "100000",
                               "WAYMARK_WRITE_RATE": "0", "WAYMARK_WEATHER_URL": weather.url})
    server.smtp = smtp
    server.key = server.gateway_key("reliability")
    server.start()
    yield server
    server.stop()
    smtp.stop()
    weather.stop()
    shutil.rmtree(path, ignore_errors=True)


