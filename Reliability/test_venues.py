"""Venues under stress (WAY-1, WAY-6, QLT-2): hostile archives and directories sent by an
operator, two imports of one venue at once, and SIGKILL in the middle of an import. A venue is
only ever the whole of one archive: never a mix, never half, and the one before stays until a
new one is complete."""
from __future__ import annotations

import io
import json
import random
import threading
import time
import uuid
import zipfile

import pytest
import requests

from harness import Server, is_problem, report


def zipped(files: dict[str, bytes | str], method=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()


def operator(server: Server) -> str:
    username = f"ops{uuid.uuid4().hex[:8]}"
    r = requests.post(f"{server.url}/v1/accounts", json={"username": username, "password": "Venues#2026pass"}, timeout=20)
    r.raise_for_status()
    server.grant_operator(username)
    return r.json()["token"]


def venue(server: Server, name: str) -> dict:
    return next(v for v in server.json("/v1/venues")["venues"] if v["name"] == name)


def export(server: Server, venue_id: str) -> dict[str, bytes]:
    r = requests.get(f"{server.url}/v1/venues/{venue_id}/imdf", timeout=60)
    r.raise_for_status()
    z = zipfile.ZipFile(io.BytesIO(r.content))
    return {n: z.read(n) for n in z.namelist()}


def upload(server: Server, token: str, body: bytes, strict=False) -> requests.Response:
    return requests.put(f"{server.url}/v1/operator/venues" + ("?strict=true" if strict else ""), data=body, timeout=120,
                        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/zip"})


def hostile_archives(good: dict[str, bytes]) -> list[tuple[str, bytes, set[int]]]:
    """(name, body, statuses allowed): every one is refused and changes nothing."""
    no_venue = {k: v for k, v in good.items() if not k.startswith("venue")}
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("unit.geojson", "w", force_zip64=True) as f:
            chunk = b" " * (1 << 20)
            for _ in range(600):  # 600 MB of spaces, about 0.6 MB zipped
                f.write(chunk)
    deep = b"[" * 200_000 + b"]" * 200_000
    return [
        ("empty body", b"", {400, 422}),
        ("not a zip", b"PK\x03\x04 but nothing after", {422}),
        ("random bytes", random.Random(7).randbytes(4096), {422}),
        ("an empty zip", zipped({}), {422}),
        ("truncated", zipped(good)[: 2000], {422}),
        ("no venue feature", zipped(no_venue), {422}),
        ("JSON that is not GeoJSON", zipped({**good, "venue.geojson": b'{"type": "Banana"}'}), {422}),
        ("invalid UTF-8", zipped({**good, "venue.geojson": b'{"type":"FeatureCollection","features":[\xff\xfe]}'}), {422}),
        ("nesting 200,000 deep", zipped({**good, "unit.geojson": deep}), {422}),
        ("a number of 400 digits", zipped({**good, "level.geojson": good["level.geojson"].replace(b'"ordinal":', b'"ordinal":1' + b"0" * 400 + b',"x":', 1)}), {422}),
        ("names climbing out", zipped({"../../../../tmp/venue.geojson": good["venue.geojson"], **{k: v for k, v in good.items() if k != "venue.geojson"}}), {200, 422}),
        ("600 MB unpacked", bomb.getvalue(), {413, 422}),
        ("more than the upload limit", b"PK" + b"\0" * (65 << 20), {413}),
    ]


def test_hostile_archives_and_directories_are_refused_and_change_nothing(demo_server):
    """WAY-1 WAY-6 QLT-2: each refused with a problem that says why; the venue and its directory
    stay exactly as they were, and the server stays healthy."""
    server = demo_server
    token = operator(server)
    sb = venue(server, "CSUSB San Bernardino")
    before = export(server, sb["id"])
    version = sb["version"]
    outcomes = {}
    for name, body, allowed in hostile_archives(before):
        r = upload(server, token, body)
        ok, why = is_problem(r)
        outcomes[name] = r.status_code
        if name == "names climbing out" and r.status_code == 200:
            # The path inside the zip is only a name: the venue is read, nothing is written outside.
            version = r.json()["version"]
            continue
        assert r.status_code in allowed and ok, f"{name}: {r.status_code} {why} {r.text[:300]}"
        if r.status_code == 422:
            assert r.json().get("detail"), f"{name}: says why"
    csvs = [
        ("no header", b"", 400), ("missing columns", b"who,where\nSam,JB\n", 400),
        ("invalid UTF-8", b"name,building,room\n\xff\xfe,JB,JB-102\n", 400),
        ("a field of 10,000 characters", b"name,building,room\n" + b"x" * 10_000 + b",JB,JB-102\n", 400),
        ("an unclosed quote", b'name,building,room\n"Sam,JB,JB-102\n', 400),
        ("the same person twice", b"name,building,room\nSam Lee,JB,JB-102\nSam Lee,JB,JB-102\n", 400),
        ("over the body limit", b"name,building,room\n" + b"Sam Lee,JB,JB-102\n" * 70_000, 413),
    ]
    people = sb["people"]
    for name, body, status in csvs:
        r = requests.put(f"{server.url}/v1/operator/venues/{sb['id']}/directory", data=body, timeout=60,
                         headers={"Authorization": f"Bearer {token}", "Content-Type": "text/csv"})
        ok, why = is_problem(r)
        outcomes[f"csv: {name}"] = r.status_code
        assert r.status_code == status and ok, f"csv {name}: {r.status_code} {why} {r.text[:300]}"
    after = venue(server, "CSUSB San Bernardino")
    assert after["version"] == version and after["people"] == people
    assert export(server, sb["id"]) == before, "the venue is the archive it was"
    assert requests.get(f"{server.url}/ready", timeout=10).status_code == 200
    report("venue_bad_input", outcomes)


def test_two_imports_of_one_venue_at_once_leave_one_whole_archive(demo_server):
    """WAY-1: the database decides; each import is whole, the versions are two new ones, and
    reads in between always see one complete venue."""
    server = demo_server
    token = operator(server)
    pd = venue(server, "CSUSB Palm Desert")
    original = export(server, pd["id"])
    renamed = {k: v for k, v in original.items()}
    renamed["venue.geojson"] = original["venue.geojson"].replace(b"CSUSB Palm Desert", b"Palm Desert Campus")
    results, reads, stop = [], [], threading.Event()

    def reader():
        while not stop.is_set():
            r = requests.get(f"{server.url}/v1/venues/{pd['id']}", timeout=30)
            reads.append((r.status_code, r.json().get("name"), len(r.json().get("buildings", []))))

    def importer(files):
        results.append(upload(server, token, zipped(files)))

    t = threading.Thread(target=reader)
    t.start()
    workers = [threading.Thread(target=importer, args=(f,)) for f in (original, renamed)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    stop.set()
    t.join()
    assert [r.status_code for r in results] == [200, 200], [r.text[:200] for r in results]
    assert sorted(r.json()["version"] for r in results) == [pd["version"] + 1, pd["version"] + 2]
    assert all(s == 200 and name in ("CSUSB Palm Desert", "Palm Desert Campus") and n == 4 for s, name, n in reads), set(reads)
    final = export(server, pd["id"])
    assert final in (original, renamed), "one archive, not a mix"
    report("venue_races", {"reads_between": len(reads), "versions": [r.json()["version"] for r in results]})


def test_sigkill_during_an_import_leaves_the_venue_before_or_the_new_one(workdir):
    """WAY-1: replaced atomically — after a kill mid-import the venue is the whole old archive
    or the whole new one, and the server starts and answers."""
    server = Server(workdir, env={"WAYMARK_WRITE_RATE": "0"})
    try:
        server.start()
        token = operator(server)
        sb = venue(server, "CSUSB San Bernardino")
        old = export(server, sb["id"])
        new = dict(old)
        new["venue.geojson"] = old["venue.geojson"].replace(b"CSUSB San Bernardino", b"San Bernardino Campus")
        body = zipped(new)
        seen, outcomes = [], []
        # Kills spread over an import's length (about a second on a debug build), before, during and after its commit.
        delays = [0.1, 0.3, 0.5, 0.7, 0.9, 1.2, 2.5]
        for round_, delay in enumerate(delays):
            def send():
                try:
                    seen.append(upload(server, token, body).status_code)
                except requests.RequestException:
                    seen.append("killed first")
            t = threading.Thread(target=send)
            t.start()
            time.sleep(delay)
            server.kill()
            t.join()
            server.start()
            now = export(server, sb["id"])
            assert now in (old, new), f"round {round_}: the venue is neither the old archive nor the new one"
            outcomes.append("new" if now == new else "old")
            venue_name = server.json(f"/v1/venues/{sb['id']}")["name"]
            assert "San Bernardino" in venue_name, venue_name
            old = now  # the next round replaces whatever is there now
            new = dict(now)
            new["venue.geojson"] = now["venue.geojson"].replace(b"San Bernardino", b"San Bernardino " + str(round_).encode())
            body = zipped(new)
        report("venue_crash", {"rounds": len(delays), "answers_before_kill": seen, "venue_after_restart": outcomes})
    finally:
        server.kill()
