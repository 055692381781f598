#!/usr/bin/env python3
"""Waymark's place search over HTTP beside PostgreSQL pg_trgm on the same data (WAY-3).

Loads the demo campus (CSU San Bernardino: its buildings, rooms, offices and amenities) into a
release-built server, adds a directory of generated people until rooms and people number at
least --entries, then asks both the same queries, the way people type them: full names and
names with a slip, room numbers written three ways, building names with a slip in each word,
services by the start of their name. For each: the time per query (ours over HTTP on one
kept-alive connection, beside the no-op route GET /health on the same connection; pg_trgm
inside the database, timed with clock_timestamp, so it pays no client or network time) and how
often the place meant is among the first three results. Timing never fails anything.

  swift build -c release --product waymark
  python3 Benchmarks/search/search.py --postgres postgres://postgres@127.0.0.1:5432/postgres

pg_trgm gets a GiST index and the query `ORDER BY text <<-> query LIMIT 3` (word-similarity
distance, the index's own ordering), on the same words our index holds for each place.
"""
import argparse
import csv
import http.client
import io
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GIVEN = ["Maria", "James", "Linda", "Robert", "Patricia", "Michael", "Jennifer", "David", "Elizabeth", "Jose", "Susan",
         "Daniel", "Jessica", "Kevin", "Sarah", "Thomas", "Karen", "Anthony", "Nancy", "Mark", "Lisa", "Steven", "Angela",
         "Paul", "Michelle", "Andrew", "Laura", "Joshua", "Emily", "Kenneth", "Rebecca", "Brian", "Sharon", "Luis",
         "Cynthia", "Eric", "Amy", "Ahmed", "Mei", "Priya", "Hiroshi", "Ngozi", "Olga", "Rafael", "Sofia", "Tuan",
         "Yolanda", "Gerard", "Samuel", "Fatima", "Omar", "Lucia", "Diego", "Ingrid", "Kwame", "Aisha", "Chen", "Nadia"]
ONSETS = ["b", "br", "c", "ch", "d", "f", "g", "gr", "h", "j", "k", "l", "m", "n", "p", "r", "s", "st", "t", "v", "w", "z"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ei", "ou"]
CODAS = ["", "n", "r", "s", "l", "nd", "rt", "m", "k", "t"]
TITLES = ["Professor", "Associate Professor", "Lecturer", "Advisor", "Coordinator", "Librarian", "Technician"]


def surname(rng):
    return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(rng.choice([2, 2, 3]))).capitalize()


def slip(word, rng):
    """One typing slip in a word of four letters or more: two neighbours swapped, or one dropped."""
    if len(word) < 4:
        return word
    i = rng.randrange(1, len(word) - 2)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + word[i + 1:]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(url, sql, stdin=None):
    return subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-Atq", "-c", sql], input=stdin,
                          capture_output=True, text=True, check=True).stdout.strip()


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, round((len(s) - 1) * p))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--postgres", required=True, help="a server URL whose user may create databases")
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/waymark"))
    ap.add_argument("--entries", type=int, default=50_000, help="rooms and people together, at least")
    ap.add_argument("--queries", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--misses", type=int, default=0, help="print this many of our misses, with what came first instead")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="waymark-search-")
    db = os.path.join(work, "waymark.sqlite")
    env = {**os.environ, "WAYMARK_LOG_LEVEL": "warning"}
    subprocess.run([args.binary, "demo", "--database", db], check=True, capture_output=True, env=env)
    venues = subprocess.run([args.binary, "venues", "--database", db], check=True, capture_output=True, text=True, env=env).stdout
    venue = next(line.split("\t")[0] for line in venues.splitlines() if "San Bernardino" in line)
    export = os.path.join(work, "venue.zip")
    subprocess.run([args.binary, "export", "imdf", "--venue", venue, "-o", export, "--database", db], check=True, capture_output=True, env=env)

    # The places as the archive has them: what both searches index.
    z = zipfile.ZipFile(export)
    feats = {name.split(".")[0]: json.loads(z.read(name))["features"] for name in z.namelist() if name.endswith(".geojson")}
    label = lambda f, k="name": ((f["properties"].get(k) or {}).get("en") if isinstance(f["properties"].get(k), dict) else None)
    buildings = {f["id"]: (label(f), label(f, "alt_name")) for f in feats["building"]}
    level_building = {f["id"]: buildings.get((f["properties"].get("building_ids") or [None])[0], (None, None))[0] for f in feats["level"]}
    rows = []  # (title, words, kind)
    for bid, (name, code) in buildings.items():
        rows.append((name, f"{name} {code or ''} building", "building"))
    offices = []
    for f in feats["unit"]:
        name = label(f)
        if not name or f["properties"].get("category") == "walkway":
            continue
        category = f["properties"].get("category") or ""
        rows.append((name, f"{name} {category} {level_building.get(f['properties'].get('level_id')) or ''}", "room"))
        if category == "office" and re.match(r"^[A-Z]+-\d+$", name):
            offices.append(name)
    for f in feats.get("occupant", []):
        rows.append((label(f), f"{label(f)} {' '.join(f['properties'].get('keywords') or [])}", "service"))
    for f in feats.get("amenity", []):
        if label(f):
            rows.append((label(f), f"{label(f)} {f['properties'].get('category') or ''}", "amenity"))

    # People until the entries reach --entries, each name unique so that "the one meant" is clear.
    people, seen = [], set()
    while len(rows) + len(people) < args.entries:
        name = f"{rng.choice(GIVEN)} {surname(rng)}"
        if name in seen:
            continue
        seen.add(name)
        room = rng.choice(offices)
        people.append((name, rng.choice(TITLES), room.split("-")[0], room))
    staff = os.path.join(work, "staff.csv")
    with open(staff, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "title", "department", "building", "room", "email", "office_hours"])
        for name, title, code, room in people:
            w.writerow([name, title, "", code, room, "", ""])
    subprocess.run([args.binary, "import", "directory", staff, "--venue", venue, "--database", db], check=True, capture_output=True, env=env)
    for name, title, code, room in people:
        rows.append((name, f"{name} {title} {room}", "person"))
    print(f"entries: {len(rows):,} ({len(people):,} people, {len(rows) - len(people):,} rooms, buildings, services and amenities)")

    # Queries, as people type them, each with the title meant.
    queries = []
    rooms = [r for r in rows if r[2] == "room" and re.match(r"^[A-Z]+-\d+$", r[0])]
    services = [r for r in rows if r[2] == "service"]
    named_buildings = [r for r in rows if r[2] == "building"]
    for k in range(args.queries):
        kind = ["person", "person-slip", "room", "room", "building", "service"][k % 6]
        if kind == "person":
            title = rng.choice(people)[0]; q = title
        elif kind == "person-slip":
            title = rng.choice(people)[0]; first, last = title.split(" ", 1); q = f"{first} {slip(last, rng)}"
        elif kind == "room":
            title = rng.choice(rooms)[0]; code, number = title.split("-")
            q = rng.choice([title, f"{code} {number}", f"{code.lower()}{number}"])
        elif kind == "building":
            title = rng.choice(named_buildings)[0]; q = " ".join(slip(w.lower(), rng) for w in title.split())
        else:
            # The words that tell it apart, the last one still being typed: "arts and lett".
            title = rng.choice(services)[0]
            words = [w.strip(",").lower() for w in title.split() if w.lower() not in ("of", "the", "and", "office", "dean,")]
            q = " ".join(words[-2:])[:-2] if len(words) > 1 else words[0][:5]
        queries.append((kind.split("-")[0] if kind != "person-slip" else "person, a slip", q, title))

    port = free_port()
    server = subprocess.Popen([args.binary, "serve", "--database", db, "--port", str(port), "--host", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(200):
            try:
                conn.request("GET", f"/v1/places?q=warm&venueId={venue}"); conn.getresponse().read(); break
            except OSError:
                time.sleep(0.1); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        noop = []
        for _ in range(args.queries):
            t0 = time.perf_counter(); conn.request("GET", "/health"); conn.getresponse().read(); noop.append((time.perf_counter() - t0) * 1000)
        ours = []
        for kind, q, title in queries:
            t0 = time.perf_counter()
            conn.request("GET", "/v1/places?" + urllib.parse.urlencode({"q": q, "venueId": venue, "limit": 3}))
            body = json.loads(conn.getresponse().read())
            found = [p["title"] for p in body["places"]]
            ours.append(((time.perf_counter() - t0) * 1000, title in found, kind))
            if title not in found and args.misses > 0:
                args.misses -= 1
                print(f"  miss: {kind:16} {q!r} meant {title!r}, got {found}")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)

    name = f"waymark_trgm_{uuid.uuid4().hex[:8]}"
    psql(args.postgres, f"CREATE DATABASE {name}")
    url = f"{args.postgres.rsplit('/', 1)[0]}/{name}"
    try:
        psql(url, "CREATE EXTENSION pg_trgm")
        psql(url, "CREATE TABLE places (title text, words text)")
        out = io.StringIO(); csv.writer(out).writerows((t, w.lower()) for t, w, _ in rows)
        psql(url, "\\copy places FROM STDIN WITH (FORMAT csv)", stdin=out.getvalue())
        psql(url, "CREATE INDEX places_trgm ON places USING gist (words gist_trgm_ops)")
        psql(url, "CREATE TABLE queries (n int PRIMARY KEY, q text)")
        out = io.StringIO(); csv.writer(out).writerows((i, q.lower()) for i, (_, q, _) in enumerate(queries))
        psql(url, "\\copy queries FROM STDIN WITH (FORMAT csv)", stdin=out.getvalue())
        psql(url, "ANALYZE")
        psql(url, """
            CREATE TABLE results (n int, ms float8, titles text[]);
            DO $$
            DECLARE r record; t0 timestamptz; found text[];
            BEGIN
              FOR r IN SELECT * FROM queries ORDER BY n LOOP
                t0 := clock_timestamp();
                SELECT array_agg(title) INTO found FROM (SELECT title FROM places ORDER BY words <<-> r.q LIMIT 3) top;
                INSERT INTO results VALUES (r.n, 1000 * extract(epoch FROM clock_timestamp() - t0), found);
              END LOOP;
            END $$;""")
        theirs = []
        for line in psql(url, "SELECT n, ms, array_to_json(titles) FROM results ORDER BY n").splitlines():
            n, ms, titles = line.split("|", 2)
            kind, _, title = queries[int(n)]
            theirs.append((float(ms), title in json.loads(titles or "[]"), kind))
    finally:
        psql(args.postgres, f"DROP DATABASE IF EXISTS {name}")

    def summary(label, xs):
        times = [x[0] for x in xs]
        top3 = sum(1 for x in xs if x[1]) / len(xs)
        return f"{label}: p50 {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, expected in top 3: {top3:.1%}"
    print(f"no-op route GET /health over HTTP: p50 {percentile(noop, 0.5):.2f} ms, p99 {percentile(noop, 0.99):.2f} ms")
    print(summary("Waymark search over HTTP", ours))
    print(summary("pg_trgm in the database  ", theirs))
    print(f"ratio Waymark p99 / no-op p99: {percentile([x[0] for x in ours], 0.99) / percentile(noop, 0.99):.1f}×; "
          f"pg_trgm p99 / Waymark p99: {percentile([x[0] for x in theirs], 0.99) / percentile([x[0] for x in ours], 0.99):.1f}×")
    kinds = sorted({x[2] for x in ours})
    print("expected in top 3 by kind of query (Waymark / pg_trgm):")
    for k in kinds:
        a = [x for x in ours if x[2] == k]; b = [x for x in theirs if x[2] == k]
        print(f"  {k:16} {sum(x[1] for x in a) / len(a):6.1%} / {sum(x[1] for x in b) / len(b):6.1%}   ({len(a)} queries)")
    for kind, q, title in queries[:6]:
        print(f"  e.g. {kind:16} {q!r} → {title!r}")


if __name__ == "__main__":
    sys.exit(main())
