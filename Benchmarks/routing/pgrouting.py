#!/usr/bin/env python3
"""Waymark's router beside pgRouting on the same graph and the same routes (WAY-5).

Runs the routing benchmark (release build) with --csv, loads its graph into a new PostgreSQL
database with the pgrouting extension, and times pgr_dijkstra and pgr_bdDijkstra for the same
pairs inside the database (clock_timestamp around each call, so no client or network time
counts against pgRouting). Every pgRouting cost is compared with Waymark's route time.
Prints figures and ratios; timing never fails anything.

  python3 Benchmarks/routing/pgrouting.py --postgres postgres://postgres@127.0.0.1:5432/postgres [--routes 200]

Needs psql and the Debian package postgresql-15-pgrouting on the server's machine.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def psql(url, sql, *extra):
    return subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-Atq", *extra, "-c", sql],
                          capture_output=True, text=True, check=True).stdout.strip()


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, round((len(s) - 1) * p))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--postgres", required=True, help="a server URL whose user may create databases")
    ap.add_argument("--routes", type=int, default=200, help="routes asked of pgRouting (the first of the benchmark's)")
    ap.add_argument("--queries", type=int, default=2000, help="routes the Swift benchmark times")
    args = ap.parse_args()

    folder = tempfile.mkdtemp(prefix="waymark-pgr-")
    run = subprocess.run(["swift", "run", "-c", "release", "--package-path", os.path.join(ROOT, "Benchmarks/routing"),
                          "routing-benchmark", "--queries", str(args.queries), "--csv", folder],
                         capture_output=True, text=True, check=True)
    print(run.stdout.strip())
    ours = re.search(r"^Waymark A\*: \d+ routes, p50 ([\d.]+) ms, p99 ([\d.]+) ms, mean ([\d.]+) ms", run.stdout, re.M)

    name = f"waymark_pgr_{uuid.uuid4().hex[:8]}"
    psql(args.postgres, f"CREATE DATABASE {name}")
    base = args.postgres.rsplit("/", 1)[0]
    url = f"{base}/{name}"
    try:
        psql(url, "CREATE EXTENSION pgrouting CASCADE")
        psql(url, "CREATE TABLE edges (id bigint PRIMARY KEY, source bigint, target bigint, cost float8)")
        psql(url, f"\\copy edges FROM '{folder}/edges.csv' WITH (FORMAT csv, HEADER true)")
        psql(url, "CREATE TABLE routes (n serial PRIMARY KEY, source bigint, target bigint, seconds float8)")
        psql(url, f"\\copy routes (source, target, seconds) FROM '{folder}/routes.csv' WITH (FORMAT csv, HEADER true)")
        psql(url, "ANALYZE")
        counts = psql(url, "SELECT (SELECT count(*) FROM edges) || ' ' || (SELECT count(DISTINCT source) FROM edges)")
        print(f"pgRouting {psql(url, 'SELECT pgr_version()')}: {counts.split()[0]} edges loaded")

        for fn in ("pgr_dijkstra", "pgr_bdDijkstra"):
            psql(url, f"""
                CREATE TEMP TABLE IF NOT EXISTS timings (fn text, n int, ms float8, cost float8);
                DO $$
                DECLARE r record; t0 timestamptz; c float8;
                BEGIN
                  FOR r IN SELECT * FROM routes ORDER BY n LIMIT {args.routes} LOOP
                    t0 := clock_timestamp();
                    SELECT max(agg_cost) INTO c FROM {fn}('SELECT id, source, target, cost FROM edges', r.source, r.target, directed => true);
                    INSERT INTO timings VALUES ('{fn}', r.n, 1000 * extract(epoch FROM clock_timestamp() - t0), c);
                  END LOOP;
                END $$;
                CREATE TABLE IF NOT EXISTS results AS SELECT * FROM timings WITH NO DATA;
                INSERT INTO results SELECT * FROM timings;""")
        rows = psql(url, "SELECT fn, ms, coalesce(cost, -1), r.seconds FROM results JOIN routes r USING (n)").splitlines()
        by_fn = {}
        for row in rows:
            fn, ms, cost, seconds = row.split("|")
            by_fn.setdefault(fn, []).append((float(ms), float(cost), float(seconds)))
        for fn, xs in by_fn.items():
            times = [x[0] for x in xs]
            # Waymark sums float32 edge times; pgRouting float64: equal within a thousandth.
            differ = [(cost, secs) for _, cost, secs in xs if abs(cost - secs) > max(0.01, secs * 1e-3)]
            disagree = len(differ)
            line = f"{fn} (in the database): {len(xs)} routes, p50 {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms"
            if ours:
                line += (f"; ratio to Waymark A*: p50 {percentile(times, 0.5) / float(ours.group(1)):.0f}×,"
                         f" p99 {percentile(times, 0.99) / float(ours.group(2)):.0f}×")
            print(line)
            print(f"  route times that differ from Waymark's: {disagree} of {len(xs)}")
            if differ:
                longer = sum(1 for cost, secs in differ if cost > secs)
                worst = max(differ, key=lambda d: abs(d[0] - d[1]))
                print(f"  of those, {longer} longer than Waymark's and {disagree - longer} shorter; the largest gap: {worst[0]:.2f} s against {worst[1]:.2f} s")
    finally:
        psql(args.postgres, f"DROP DATABASE IF EXISTS {name}")


if __name__ == "__main__":
    sys.exit(main())
