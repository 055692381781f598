"""Security checks (QLT-2, PRK-2, issue 6): secrets stay out of logs, security headers on every
response, no cross-origin access, request body limits, gateway authentication."""
from __future__ import annotations

import hashlib
import json
import socket
import subprocess
import time

import requests

from harness import Server, is_problem, keep_log, report

EVENT = {"sensorId": "csuf-x", "occupied": True, "observedAt": "2026-11-22T16:00:00Z", "sequence": 1}


def test_gateway_secrets_never_reach_the_log(workdir):
    """QLT-2: at the most verbose log level, with the built-in emulator and real, forged and
    revoked keys in use, no secret (nor its stored hash) appears in the server's output."""
    server = Server(workdir, log_level="trace", extra_args=["--simulate", "--speed", "120"])
    key = server.gateway_key("log-check")
    server.start()
    try:
        site = server.site()["id"]
        sensor = server.sensors()[0]
        forged = ["wmg_forged" + "A" * 33, key + "x", key[:-2]]
        for secret in [key, *forged]:
            for _ in range(3):
                requests.post(f"{server.url}/v1/gateway/events", json={"events": [dict(EVENT, sensorId=sensor)]},
                              headers={"Authorization": f"Bearer {secret}"}, timeout=10)
            requests.post(f"{server.url}/v1/gateway/ttn", headers={"Authorization": f"Bearer {secret}"}, timeout=10,
                          json={"end_device_ids": {"device_id": sensor}, "uplink_message": {"decoded_payload": {"occupied": False}}})
            requests.get(f"{server.url}/v1/sites/{site}/occupancy", headers={"Authorization": f"Bearer {secret}"}, timeout=10)
        # A body that fails to decode must not be echoed into the log either.
        requests.post(f"{server.url}/v1/gateway/events", data=f'{{"events":"{key}"', timeout=10,
                      headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        time.sleep(2)  # the emulator reports a few times
    finally:
        server.stop()
    log = server.log_text()
    keep_log(server, "security-trace-server.log")
    leaked = [s for s in [key, *forged, hashlib.sha256(key.encode()).hexdigest()] if s in log]
    report("security_log", {"log_bytes": len(log), "log_lines": log.count("\n"), "secrets_in_log": len(leaked)})
    assert log.count("\n") > 10, "the trace log is suspiciously short"
    assert not leaked, f"secrets in the log: {[s[:8] + '…' for s in leaked]}"
    assert "wmg_" not in log, "something that looks like a gateway secret is in the log"


def test_security_headers_on_every_kind_of_response(demo_server):
    """QLT-2: pages get a content security policy; every response, errors included, gets
    nosniff, frame denial and a referrer policy."""
    server = demo_server
    site = server.site()["id"]
    page = server.get("/")
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    csp = page.headers.get("Content-Security-Policy", "")
    for directive in ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]:
        assert directive in csp, csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    responses = {
        "page": page,
        "script": server.get("/app.js"),
        "json": server.get("/v1/sites"),
        "problem 404": server.get("/v1/sites/nope"),
        "no route": server.get("/no/such/path"),
        "405": requests.request("TRACE", f"{server.url}/health", timeout=10),
        "401": requests.post(f"{server.url}/v1/gateway/events", json={"events": []}, timeout=10),
        "413": requests.post(f"{server.url}/v1/gateway/events", data=b"x" * (2 << 20), timeout=30,
                             headers={"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"}),
        "metrics": server.get("/metrics"),
        "contract": server.get("/openapi.yaml"),
    }
    with requests.get(f"{server.url}/v1/sites/{site}/live", stream=True, timeout=10) as live:
        responses["live"] = live
        live_headers = dict(live.headers)
    missing = []
    for name, r in responses.items():
        headers = live_headers if name == "live" else r.headers
        for header, value in [("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
                              ("Referrer-Policy", "strict-origin-when-cross-origin")]:
            if headers.get(header) != value:
                missing.append(f"{name} ({r.status_code}): {header} is {headers.get(header)!r}")
    report("security_headers", {"responses_checked": len(responses), "missing": len(missing)})
    assert not missing, "\n".join(missing)


def test_no_cross_origin_access(demo_server):
    """QLT-2: no CORS origins are configured, so no origin is let in, and a preflight is refused."""
    server = demo_server
    evil = {"Origin": "https://evil.example"}
    for r in [server.get("/v1/sites", headers=evil),
              requests.post(f"{server.url}/v1/gateway/events", json={"events": []}, timeout=10,
                            headers={**evil, "Authorization": f"Bearer {server.key}"}),
              requests.options(f"{server.url}/v1/gateway/events", timeout=10,
                               headers={**evil, "Access-Control-Request-Method": "POST",
                                        "Access-Control-Request-Headers": "authorization, content-type"})]:
        assert "Access-Control-Allow-Origin" not in r.headers, r.headers
        assert "Access-Control-Allow-Credentials" not in r.headers


def post_chunked(port: int, path: str, key: str, chunks: int, chunk: bytes) -> tuple[int, dict, bytes]:
    """A body without Content-Length, streamed in chunks, read back raw."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".encode())
        try:
            for _ in range(chunks):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            s.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before the whole body is sent
        data = b""
        while True:
            try:
                part = s.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            data += part
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode(errors="replace").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/") else 0
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    return status, headers, body


def test_body_size_limit(demo_server):
    """PRK-2: bodies over the limit (1 MiB by default) are refused with a 413 problem, whether
    announced by Content-Length or streamed, and the server stays up."""
    server = demo_server
    auth = {"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"}
    big = b'{"events":[' + b",".join([json.dumps(EVENT).encode()] * 20_000) + b"]}"
    assert len(big) > 1 << 20
    for path in ["/v1/gateway/events", "/v1/gateway/ttn"]:
        r = requests.post(f"{server.url}{path}", data=big, headers=auth, timeout=30)
        ok, why = is_problem(r)
        assert ok and r.status_code == 413, (why, r.status_code, r.text[:200])
        status, headers, body = post_chunked(server.port, path, server.key, 40, b" " * 65536)
        assert status == 413, (status, body[:300])
        assert headers.get("content-type", "").startswith("application/problem+json"), headers
    small = {"events": [EVENT] * 100}
    assert requests.post(f"{server.url}/v1/gateway/events", json=small, headers=auth, timeout=30).status_code == 200
    assert server.get("/health").status_code == 200


def test_gateway_token_is_required_and_checked(demo_server):
    """PRK-2: a missing, malformed, forged or revoked gateway secret is a 401 problem with a
    Bearer challenge; the real one works."""
    server = demo_server
    url = f"{server.url}/v1/gateway/events"
    body = {"events": [EVENT]}
    assert requests.post(url, json=body, headers={"Authorization": f"Bearer {server.key}"}, timeout=10).status_code == 200
    for value in [None, "", "Bearer", f"Bearer {server.key}X", f"Bearer {server.key.upper()}", f"Basic {server.key}",
                  "Bearer wmg_" + "A" * 43, "Bearer " + "x" * 4000]:
        headers = {} if value is None else {"Authorization": value}
        r = requests.post(url, json=body, headers=headers, timeout=10)
        ok, why = is_problem(r)
        assert ok and r.status_code == 401, (value and value[:20], r.status_code, why)
        assert r.headers.get("WWW-Authenticate", "").startswith("Bearer")
    # Revoked from the command line while the server runs: refused once the short cache expires.
    key = server.gateway_key("to-revoke")
    assert requests.post(url, json=body, headers={"Authorization": f"Bearer {key}"}, timeout=10).status_code == 200
    subprocess.run([str(server.binary), "gateway", "revoke", "to-revoke", "--database", server.database, "--log-level", "error"],
                   cwd=server.workdir, check=True, capture_output=True)
    time.sleep(6)
    assert requests.post(url, json=body, headers={"Authorization": f"Bearer {key}"}, timeout=10).status_code == 401


def test_rate_limits_hold(workdir):
    """Issue 6: with the default limits, a client hammering writes is held to its budget
    (60 at once, then 10 a second) with 429 problems and Retry-After, while another client,
    reads and the server's health are unaffected; new identities per address are limited too."""
    server = Server(workdir, env={"WAYMARK_PASSWORD_COST": "4"})
    server.start()
    try:
        def device():
            r = requests.post(f"{server.url}/v1/devices", timeout=10)
            assert r.status_code == 201, r.text
            return r.json()["token"]

        hammer, bystander = device(), device()
        auth = {"Authorization": f"Bearer {hammer}"}

        def put(_):
            return requests.put(f"{server.url}/v1/me/permits", json={"permits": [{"permit": "handicap"}]}, headers=auth, timeout=20)

        import concurrent.futures
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(put, range(300)))
        elapsed = time.monotonic() - started
        allowed = sum(r.status_code == 200 for r in answers)
        refused = [r for r in answers if r.status_code == 429]
        assert allowed + len(refused) == len(answers), sorted({r.status_code for r in answers})
        assert 60 <= allowed <= 60 + 10 * elapsed + 2, (allowed, elapsed)
        for r in refused[:20]:
            ok, why = is_problem(r)
            assert ok, why
            assert int(r.headers["Retry-After"]) >= 1
        assert requests.get(f"{server.url}/v1/me/permits", headers=auth, timeout=10).json() == {"permits": [{"permit": "handicap"}]}
        reads = [requests.get(f"{server.url}/v1/me/permits", headers=auth, timeout=10).status_code for _ in range(50)]
        assert reads == [200] * 50, "reads are not limited"
        other = requests.put(f"{server.url}/v1/me/permits", json={"permits": []},
                             headers={"Authorization": f"Bearer {bystander}"}, timeout=10)
        assert other.status_code == 200, "another client has its own budget"

        # New identities from one address: the identity limit or the address's write budget.
        made = refused_ids = 0
        for _ in range(80):
            r = requests.post(f"{server.url}/v1/devices", timeout=10)
            made += r.status_code == 201
            refused_ids += r.status_code == 429
        assert made <= 60 and made + refused_ids == 80
        assert server.get("/health").status_code == 200
        report("rate_limits", {"writes": len(answers), "allowed": allowed, "refused": len(refused),
                               "seconds": round(elapsed, 2), "identities_made": made + 2, "identities_refused": refused_ids})
    finally:
        server.stop()
