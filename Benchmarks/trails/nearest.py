#!/usr/bin/env python3
"""The nearest 20 trails to a point over HTTP, beside PostGIS's KNN on the same trailheads (TRL-2).

Generates --trails trails (GeoJSON files, imported with `waymark import geojson` into a fresh
SQLite file): most in clusters around Southern California's hiking areas, the rest spread over
the other continents, each a short line with elevation. Then asks both the same --queries points
(most near the clusters, some anywhere on land or sea):

- Waymark: `GET /v1/trails?latitude=&longitude=&limit=20` on one kept-alive connection of a
  release-built server, beside the no-op route `GET /health` on the same connection;
- PostGIS: `ORDER BY trailhead <-> point LIMIT 20` on `geography` points with a GiST index (the
  index's own KNN ordering, great-circle distance), timed inside the database with
  clock_timestamp, so it pays no client or network time.

and checks that both give the same trails in the same order (ties in distance aside). Timing
never fails anything.

  swift build -c release --product waymark
  python3 Benchmarks/trails/nearest.py --postgres postgres://postgres@127.0.0.1:5432/postgres
"""
import argparse
import http.client
import json
import math
import os
import random
import signal
import socket
import subprocess
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Hiking areas of Southern California (centre, spread in degrees) and some of the world's.
CLUSTERS = [((33.88, -117.88), 0.25), ((34.24, -116.95), 0.3), ((34.10, -117.30), 0.3), ((34.30, -118.10), 0.4),
            ((33.70, -116.50), 0.5), ((36.50, -118.50), 1.0), ((37.75, -119.55), 0.6), ((46.40, 13.80), 0.8),
            ((45.90, 7.00), 1.0), ((-41.20, 172.80), 1.5), ((27.90, 86.80), 1.0), ((-33.90, 18.50), 0.6)]


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


def point(rng, clustered):
    if clustered:
        (lat, lon), spread = rng.choice(CLUSTERS)
        return max(-89.9, min(89.9, rng.gauss(lat, spread))), ((rng.gauss(lon, spread) + 180) % 360) - 180
    return math.degrees(math.asin(rng.uniform(-0.97, 0.97))), rng.uniform(-180, 180)


def trail(rng, i, clustered):
    lat, lon = point(rng, clustered)
    n = rng.randint(3, 12)
    heading = rng.uniform(0, 2 * math.pi)
    ele = rng.uniform(0, 2500)
    coords = []
    for k in range(n):
        coords.append([round(lon, 6), round(lat, 6), round(ele, 1)])
        heading += rng.uniform(-0.6, 0.6)
        lat += 0.0009 * math.cos(heading)
        lon += 0.0009 * math.sin(heading) / max(0.2, math.cos(math.radians(lat)))
        ele += rng.uniform(-15, 25)
    return {"type": "Feature", "properties": {"id": f"t{i:06d}", "name": f"Trail {i:06d}"},
            "geometry": {"type": "LineString", "coordinates": coords}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--postgres", required=True, help="a server URL whose user may create databases")
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/waymark"))
    ap.add_argument("--trails", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=20261126)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="waymark-trails-")
    db = os.path.join(work, "waymark.sqlite")
    env = {**os.environ, "WAYMARK_LOG_LEVEL": "warning", "WAYMARK_WEATHER_URL": "off"}

    features = [trail(rng, i, rng.random() < 0.85) for i in range(args.trails)]
    files = []
    for f in range(0, len(features), 10_000):
        path = os.path.join(work, f"trails-{f // 10_000:02d}.geojson")
        with open(path, "w") as fh:
            json.dump({"type": "FeatureCollection", "features": features[f:f + 10_000]}, fh)
        files.append(path)
    t0 = time.perf_counter()
    subprocess.run([args.binary, "import", "geojson", *files, "--database", db], check=True, capture_output=True, env=env)
    print(f"trails: {len(features):,} imported in {time.perf_counter() - t0:.1f} s ({len(files)} files)")

    kinds = [rng.random() < 0.9 for _ in range(args.queries)]
    queries = [point(rng, k) for k in kinds]
    port = free_port()
    server = subprocess.Popen([args.binary, "serve", "--database", db, "--port", str(port), "--host", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    ours, answers, noop = [], [], []
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(300):
            try:
                conn.request("GET", "/v1/trails?latitude=34&longitude=-117&limit=20"); conn.getresponse().read(); break
            except OSError:
                time.sleep(0.1); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for lat, lon in queries[:200]:  # warm-up
            conn.request("GET", f"/v1/trails?latitude={lat:.5f}&longitude={lon:.5f}&limit=20"); conn.getresponse().read()
        for _ in range(args.queries):
            t0 = time.perf_counter(); conn.request("GET", "/health"); conn.getresponse().read(); noop.append((time.perf_counter() - t0) * 1000)
        for lat, lon in queries:
            t0 = time.perf_counter()
            conn.request("GET", f"/v1/trails?latitude={lat:.5f}&longitude={lon:.5f}&limit=20")
            body = json.loads(conn.getresponse().read())
            ours.append((time.perf_counter() - t0) * 1000)
            answers.append([(t["id"], t["distanceMetres"]) for t in body["trails"]])
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)

    name = f"waymark_knn_{uuid.uuid4().hex[:8]}"
    psql(args.postgres, f"CREATE DATABASE {name}")
    url = f"{args.postgres.rsplit('/', 1)[0]}/{name}"
    try:
        psql(url, "CREATE EXTENSION postgis")
        psql(url, "CREATE TABLE trailheads (id text PRIMARY KEY, head geography(Point, 4326) NOT NULL)")
        rows = "\n".join(f"{f['properties']['id']}\tSRID=4326;POINT({f['geometry']['coordinates'][0][0]} {f['geometry']['coordinates'][0][1]})" for f in features)
        psql(url, "\\copy trailheads FROM STDIN", stdin=rows + "\n")
        psql(url, "CREATE INDEX trailheads_head ON trailheads USING gist (head)")
        psql(url, "ANALYZE trailheads")
        psql(url, "CREATE TABLE queries (n int, lat float8, lon float8)")
        psql(url, "\\copy queries FROM STDIN", stdin="\n".join(f"{i}\t{lat}\t{lon}" for i, (lat, lon) in enumerate(queries)) + "\n")
        out = psql(url, """
            CREATE TEMP TABLE timings (n int, ms float8, ids text[], metres float8[]);
            DO $$
            DECLARE q record; t0 timestamptz; ids text[]; metres float8[];
            BEGIN
              FOR q IN SELECT * FROM queries ORDER BY n LOOP  -- warm-up
                EXIT WHEN q.n >= 200;
                PERFORM id FROM trailheads ORDER BY head <-> ST_SetSRID(ST_MakePoint(q.lon, q.lat), 4326)::geography LIMIT 20;
              END LOOP;
              FOR q IN SELECT * FROM queries ORDER BY n LOOP
                t0 := clock_timestamp();
                SELECT array_agg(id ORDER BY d), array_agg(d ORDER BY d) INTO ids, metres FROM (
                  SELECT id, head <-> ST_SetSRID(ST_MakePoint(q.lon, q.lat), 4326)::geography AS d FROM trailheads
                  ORDER BY head <-> ST_SetSRID(ST_MakePoint(q.lon, q.lat), 4326)::geography LIMIT 20) k;
                INSERT INTO timings VALUES (q.n, extract(epoch FROM clock_timestamp() - t0) * 1000, ids, metres);
              END LOOP;
            END $$;
            SELECT n, ms, array_to_string(ids, ','), array_to_string(metres, ',') FROM timings ORDER BY n;
            """)
    finally:
        psql(args.postgres, f"DROP DATABASE IF EXISTS {name}")

    theirs, same, close = [], 0, 0
    for line in out.splitlines():
        n, ms, ids, metres = line.split("|")
        theirs.append(float(ms))
        ids = ids.split(",") if ids else []
        metres = [float(m) for m in metres.split(",")] if metres else []
        mine = answers[int(n)]
        if [i for i, _ in mine] == ids:
            same += 1
        # Equal up to ties: the same distances in the same order, within a metre (haversine on a
        # sphere against PostGIS's sphere of the same radius may differ in the last digits).
        elif len(mine) == len(metres) and all(abs(a[1] - b) <= 1.0 for a, b in zip(mine, metres)):
            close += 1

    def row(label, xs):
        return f"  {label:<34} p50 {percentile(xs, 0.5):6.2f} ms   p99 {percentile(xs, 0.99):6.2f} ms   mean {sum(xs) / len(xs):6.2f} ms"

    print(f"queries: {len(queries):,} (90 % near the hiking areas), 20 trails each")
    print(row("GET /health (reference)", noop))
    print(row("Waymark GET /v1/trails?near, HTTP", ours))
    print(row("PostGIS KNN, inside the database", theirs))
    near = [t for t, k in zip(ours, kinds) if k]
    far = [t for t, k in zip(ours, kinds) if not k]
    print(row("  Waymark, points near hiking areas", near))
    print(row("  Waymark, points anywhere", far))
    slow = sorted(range(len(ours)), key=lambda i: -ours[i])[:5]
    print("  slowest: " + "; ".join(f"{ours[i]:.1f} ms at {queries[i][0]:.2f},{queries[i][1]:.2f}" for i in slow))
    print(f"  Waymark over HTTP minus the no-op route: p50 {percentile(ours, 0.5) - percentile(noop, 0.5):.2f} ms; "
          f"PostGIS / Waymark at p99: {percentile(theirs, 0.99) / percentile(ours, 0.99):.2f}")
    print(f"  same trails in the same order: {same:,} of {len(queries):,}; the same distances in another order of ties: {close:,}")


if __name__ == "__main__":
    main()
