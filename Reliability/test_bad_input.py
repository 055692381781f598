"""Bad input corpus (QLT-2, PRK-2, issue 6): malformed and truncated JSON, wrong types, huge
numbers, huge bodies, deep nesting, invalid UTF-8, control characters, SQL and script injection,
path traversal in ids, wrong content types, missing and forged tokens. Every one is answered
4xx with an RFC 9457 problem, the server stays healthy, and nothing is stored.
"""
from __future__ import annotations

import http.client
import json

import pytest
import requests

from harness import is_problem, report

EVENT = {"sensorId": "csuf-x", "occupied": True, "observedAt": "2026-11-22T16:00:00Z", "sequence": 1}

INJECTION = [
    "' OR '1'='1", "1; DROP TABLE spots; --", "\" OR 1=1 --", "1 UNION SELECT secret_hash FROM gateways",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "javascript:alert(1)", "${7*7}", "{{7*7}}",
]
TRAVERSAL = ["..%2F..%2F..%2Fetc%2Fpasswd", "..%2f..%2fWaymark.sqlite", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
             "....%2F%2F....%2F%2Fetc%2Fpasswd", "%00", "%ff%fe", "a%0d%0aSet-Cookie:%20x=1", "%c0%ae%c0%ae%2f"]


def event_bodies(sensor: str) -> list[tuple[str, bytes]]:
    """Bodies for POST /v1/gateway/events that must all be refused whole."""
    good = dict(EVENT, sensorId=sensor)
    full = json.dumps({"events": [good]}).encode()
    bodies = [
        ("empty", b""),
        ("null", b"null"),
        ("array", b"[]"),
        ("string", b'"events"'),
        ("number", b"42"),
        ("no events", b"{}"),
        ("events null", b'{"events":null}'),
        ("events object", b'{"events":{}}'),
        ("events string", b'{"events":"many"}'),
        ("event is a string", b'{"events":["x"]}'),
        ("event missing fields", b'{"events":[{}]}'),
        ("sensorId a number", json.dumps({"events": [dict(good, sensorId=1)]}).encode()),
        ("sensorId null", json.dumps({"events": [dict(good, sensorId=None)]}).encode()),
        ("occupied a string", json.dumps({"events": [dict(good, occupied="yes")]}).encode()),
        ("occupied a number", json.dumps({"events": [dict(good, occupied=1)]}).encode()),
        ("observedAt not a date", json.dumps({"events": [dict(good, observedAt="yesterday")]}).encode()),
        ("observedAt a number", json.dumps({"events": [dict(good, observedAt=1795363200)]}).encode()),
        ("observedAt with a space", json.dumps({"events": [dict(good, observedAt="2026-11-22 16:00:00Z")]}).encode()),
        ("observedAt year 275760", json.dumps({"events": [dict(good, observedAt="+275760-09-13T00:00:00Z")]}).encode()),
        ("observedAt 30 February", json.dumps({"events": [dict(good, observedAt="2026-02-30T00:00:00Z")]}).encode()),
        ("sequence a string", json.dumps({"events": [dict(good, sequence="1")]}).encode()),
        ("sequence a fraction", json.dumps({"events": [dict(good, sequence=1.5)]}).encode()),
        ("sequence 1e40", full.replace(b'"sequence": 1', b'"sequence": 1e40')),
        ("sequence 2^63", full.replace(b'"sequence": 1', b'"sequence": 9223372036854775808')),
        ("sequence 10^400", full.replace(b'"sequence": 1', b'"sequence": 1' + b"0" * 400)),
        ("sequence -2^63-1", full.replace(b'"sequence": 1', b'"sequence": -9223372036854775809')),
        ("sequence NaN", full.replace(b'"sequence": 1', b'"sequence": NaN')),
        ("sequence Infinity", full.replace(b'"sequence": 1', b'"sequence": Infinity')),
        ("over 5,000 events", json.dumps({"events": [good] * 5001}).encode()),
        ("truncated", full[: len(full) // 2]),
        ("truncated at the end", full[:-1]),
        ("trailing garbage", full + b"}"),
        ("two documents", full + full),
        ("single quotes", full.replace(b'"', b"'")),
        ("comments", b"/* hi */" + full),
        ("trailing comma", b'{"events":[],}'),
        ("bare words", b"{events: []}"),
        ("invalid UTF-8", full.replace(sensor.encode(), b"\xff\xfe\xc0\xaf")),
        ("invalid UTF-8 in a key", b'{"ev\xffents":[]}'),
        ("overlong UTF-8", full.replace(sensor.encode(), b"\xc0\xae\xc0\xae")),
        ("UTF-16 body", full.decode().encode("utf-16")),
        ("raw control characters", full.replace(sensor.encode(), b"a\x01\x02\x1b[31m\x00b")),
        ("raw newline in a string", full.replace(sensor.encode(), b"a\nb")),
        ("deep nesting in events", b'{"events":' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        ("deep nesting of objects", b'{"a":' * 50_000 + b"1" + b"}" * 50_000),
        ("deep nesting, unclosed", b"[" * 200_000),
        ("injection as the body", INJECTION[1].encode()),
    ]
    for text in INJECTION[:4]:
        bodies.append((f"injection as occupied: {text}", json.dumps({"events": [dict(good, occupied=text)]}).encode()))
        bodies.append((f"injection as sequence: {text}", json.dumps({"events": [dict(good, sequence=text)]}).encode()))
    return bodies


def ttn_bodies(sensor: str) -> list[tuple[str, bytes]]:
    good = {"end_device_ids": {"device_id": sensor}, "received_at": "2026-11-22T16:00:00Z",
            "uplink_message": {"f_cnt": 1, "decoded_payload": {"occupied": True}}}
    return [
        ("empty", b""),
        ("no uplink", json.dumps({"end_device_ids": {"device_id": sensor}}).encode()),
        ("no decoded payload", json.dumps(dict(good, uplink_message={"f_cnt": 1})).encode()),
        ("occupied missing", json.dumps(dict(good, uplink_message={"f_cnt": 1, "decoded_payload": {}})).encode()),
        ("occupied a string", json.dumps(dict(good, uplink_message={"f_cnt": 1, "decoded_payload": {"occupied": "1"}})).encode()),
        ("f_cnt huge", json.dumps(good).encode().replace(b'"f_cnt": 1', b'"f_cnt": 1' + b"0" * 30)),
        ("device id a number", json.dumps(dict(good, end_device_ids={"device_id": 7})).encode()),
        ("received_at garbage", json.dumps(dict(good, received_at="<script>")).encode()),
        ("truncated", json.dumps(good).encode()[:40]),
        ("invalid UTF-8", json.dumps(good).encode().replace(sensor.encode(), b"\xff\xff")),
        ("deep nesting", b'{"end_device_ids":' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    ]


def raw_request(server, method: str, path: str, body: bytes = b"", headers: dict | None = None):
    """Sends the path exactly as given (no normalising of `..` or re-encoding)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body or method in ("POST", "PUT"):
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body or None)
        r = conn.getresponse()
        data = r.read()
        resp = requests.Response()
        resp.status_code = r.status
        resp.headers = requests.structures.CaseInsensitiveDict(r.getheaders())
        resp._content = data
        return resp
    finally:
        conn.close()


def stored_state(server) -> dict:
    """Everything the corpus must leave as it was."""
    site = server.site()["id"]
    occupancy = server.json(f"/v1/sites/{site}/occupancy")
    lots = {l["lotId"]: l["version"] for l in occupancy["lots"]}
    states = {lot: server.json(f"/v1/lots/{lot}/spot-states")["states"] for lot in lots}
    return {"sites": server.json("/v1/sites"), "lots": lots, "states": states,
            "lastEventId": occupancy.get("lastEventId"), "ingest": server.ingest_counts()}


@pytest.fixture(scope="module")
def ids(demo_server):
    site = demo_server.site()["id"]
    lot = demo_server.lots()[0]["id"]
    sensor = demo_server.json(f"/v1/lots/{lot}/spots")["spots"][0]["sensorId"]
    return {"site": site, "lot": lot, "sensor": sensor}


def test_bad_input_corpus_is_refused_with_problems(demo_server, ids):
    """QLT-2, PRK-2: every bad request is a 4xx problem, and none of them changes anything."""
    server = demo_server
    before = stored_state(server)
    auth = {"Authorization": f"Bearer {server.key}"}
    json_auth = {**auth, "Content-Type": "application/json"}
    cases: list[tuple[str, str, str, bytes, dict]] = []

    for name, body in event_bodies(ids["sensor"]):
        cases.append((f"events: {name}", "POST", "/v1/gateway/events", body, json_auth))
    for name, body in ttn_bodies(ids["sensor"]):
        cases.append((f"ttn: {name}", "POST", "/v1/gateway/ttn", body, json_auth))

    valid = json.dumps({"events": [dict(EVENT, sensorId=ids["sensor"], sequence=10**12)]}).encode()
    for path in ["/v1/gateway/events", "/v1/gateway/ttn"]:
        for ctype in ["text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                      "application/octet-stream", "text/html", "application/jsonx", "image/png", None]:
            headers = dict(auth, **({"Content-Type": ctype} if ctype else {}))
            cases.append((f"{path}: content type {ctype}", "POST", path, valid, headers))
        huge = b'{"events":[' + b",".join([json.dumps(dict(EVENT, sensorId=ids["sensor"])).encode()] * 40_000) + b"]}"
        cases.append((f"{path}: body of {len(huge) >> 20} MiB", "POST", path, huge, json_auth))
        forged = ["", "Bearer", "Bearer ", f"Bearer {server.key}x", f"Bearer {server.key[:-1]}", f"bearer{server.key}",
                  f"Basic {server.key}", f"Token {server.key}", "Bearer wmg_" + "A" * 43, "Bearer " + "A" * 600,
                  "Bearer ' OR '1'='1", f"Bearer {server.key} {server.key}", "Bearer \t"]
        for value in forged:
            headers = {"Content-Type": "application/json", **({"Authorization": value} if value else {})}
            cases.append((f"{path}: token {value[:30]!r}", "POST", path, valid, headers))

    # Ids in every GET with a path id, and the query and headers of those operations.
    templates = ["/v1/sites/{}", "/v1/sites/{}/lots", "/v1/sites/{}/occupancy", "/v1/sites/{}/live",
                 "/v1/lots/{}", "/v1/lots/{}/spots", "/v1/lots/{}/spot-states", "/v1/lots/{}/typical-occupancy"]
    bad_ids = [requests.utils.quote(t, safe="") for t in INJECTION] + TRAVERSAL + ["x" * 65, "x" * 5000,
               ids["lot"] + "x", ids["site"].upper(), "%20", "%09", "%C3%A9"]
    for template in templates:
        for bad in bad_ids:
            cases.append((f"GET {template} with {bad[:40]!r}", "GET", template.format(bad), b"", {}))
    for path in ["/../../../../etc/passwd", "/v1/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                 "/..%2f..%2f..%2fetc%2fpasswd", "/Web/../Package.swift", "/v1/sites/../../waymark.sqlite"]:
        cases.append((f"traversal {path}", "GET", path, b"", {}))
    lot, site = ids["lot"], ids["site"]
    for q in ["0", "8", "-1", "x", "1.5", "1%20OR%201=1", "99999999999999999999", "%00", "<script>"]:
        cases.append((f"typical-occupancy weekday={q}", "GET", f"/v1/lots/{lot}/typical-occupancy?weekday={q}", b"", {}))
    for q in ["-1", "x", "1e3", "99999999999999999999", "1;DROP TABLE live_events"]:
        cases.append((f"live lastEventId={q}", "GET", f"/v1/sites/{site}/live?lastEventId={requests.utils.quote(q)}", b"", {}))
    cases.append(("live Last-Event-ID of 33 characters", "GET", f"/v1/sites/{site}/live", b"", {"Last-Event-ID": "1" * 33}))
    for path in [f"/v1/sites/{site}/occupancy", f"/v1/lots/{lot}/spots", f"/v1/lots/{lot}/spot-states"]:
        cases.append((f"{path} with If-None-Match of 257 characters", "GET", path, b"", {"If-None-Match": "\"" + "a" * 255 + "\""}))

    failures = []
    for name, method, path, body, headers in cases:
        try:
            response = raw_request(server, method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            failures.append(f"{name}: {error!r}")
            continue
        ok, why = is_problem(response)
        if ok and b"root:" in response.content:
            ok, why = False, "file content leaked"
        if not ok:
            failures.append(f"{name}: {why} {response.content[:200]!r}")
        assert server.alive(), f"the server died on {name}: {server.log_tail()}"

    after = stored_state(server)
    health = server.get("/health")
    report("bad_input", {"cases": len(cases), "failures": len(failures), "health": health.status_code,
                         "stored_state_unchanged": before == after})
    assert not failures, "\n".join(failures)
    assert health.status_code == 200 and server.get("/ready").status_code == 200
    assert before == after, "the bad input changed what the server stores"


def test_hostile_values_in_well_formed_events_change_nothing(demo_server, ids):
    """PRK-2: a well-formed batch is judged event by event (the contract answers 200 with an
    outcome per event), so injection strings, control characters and impossible values in
    otherwise valid events come back `unknownSensor` or `invalid`, and nothing is stored."""
    server = demo_server
    before = stored_state(server)
    s = ids["sensor"]
    events = [dict(EVENT, sensorId=text) for text in INJECTION]
    events += [dict(EVENT, sensorId=s + "\u0000"), dict(EVENT, sensorId="\u202e" + s), dict(EVENT, sensorId=s + "\r\n"),
               dict(EVENT, sensorId="x" * 10_000), dict(EVENT, sensorId=""), dict(EVENT, sensorId="../" + s)]
    events += [dict(EVENT, sensorId=s, sequence=-1), dict(EVENT, sensorId=s, sequence=-(2**63)),
               dict(EVENT, sensorId=s, observedAt="9999-12-31T23:59:59Z"), dict(EVENT, sensorId=s, observedAt="1970-01-01T00:00:00Z"),
               dict(EVENT, sensorId=s, observedAt="0001-01-01T00:00:00Z"), dict(EVENT, sensorId=s, observedAt="2999-01-01T00:00:00+23:59")]
    r = requests.post(f"{server.url}/v1/gateway/events", json={"events": events},
                      headers={"Authorization": f"Bearer {server.key}"}, timeout=30)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["accepted"] == 0 and body["duplicate"] == 0 and body["stale"] == 0, body
    assert len(body["outcomes"]) == len(events)
    assert set(body["outcomes"]) <= {"unknownSensor", "invalid"}
    after = stored_state(server)
    # Refused events are counted by outcome, and that is all that changes.
    before.pop("ingest"), after.pop("ingest")
    assert before == after
