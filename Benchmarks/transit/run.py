#!/usr/bin/env python3
"""Transit journeys (PLN-5): Waymark's GTFS reader and RAPTOR planner beside pyraptor.

Builds the Swift benchmark (release), generates the city-sized feed (citygen.py), runs
Waymark's side (`transit-benchmark run`: the reader, the day's timetable, N earliest-arrival
queries), then pyraptor (reference.py) on the same feed and the first of the same queries, in
the same run, and prints one table: per-query times, ratios, and the arrival times compared
query by query. Timing never fails anything; the exit code is 0 unless a step breaks.

    python3 -m venv Benchmarks/transit/.venv
    Benchmarks/transit/.venv/bin/pip install -r Benchmarks/transit/requirements.txt
    python3 Benchmarks/transit/run.py [--queries 1000] [--reference-budget 150] [--json results.json]
    python3 Benchmarks/transit/run.py --feed milan      # the demo Milan feed, when the core has it

pyraptor runs under Benchmarks/transit/.venv/bin/python when that exists (else --python, else
this interpreter). Its timetable pickle is kept in --work and reused while the feed's files and
the date are the same (its preprocessing takes minutes); --fresh makes it again.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import citygen  # noqa: E402


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, round((len(s) - 1) * p))] if s else float("nan")


def clock(seconds):
    if seconds is None:
        return "—"
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def fingerprint(folder, date):
    h = hashlib.sha1(date.encode())
    for name in sorted(os.listdir(folder)):
        if name.endswith(".txt"):
            h.update(name.encode())
            with open(os.path.join(folder, name), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def step(title, command, **kwargs):
    print(f"== {title}", flush=True)
    started = time.perf_counter()
    run = subprocess.run(command, text=True, capture_output=True, **kwargs)
    if run.returncode != 0:
        sys.stderr.write(run.stdout + run.stderr)
        sys.exit(f"{title} failed ({' '.join(command)})")
    out = run.stdout.strip()
    if out:
        print(out)
    return time.perf_counter() - started


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--feed", choices=["lumera", "milan"], default="lumera",
                    help="lumera: the generated city (citygen.py); milan: the core's demo Milan feed (needs MilanTransit.swift)")
    ap.add_argument("--seed", type=int, default=1, help="the generated city's seed")
    ap.add_argument("--date", default="20261127", help="the service day, YYYYMMDD (a weekday)")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--query-seed", type=int, default=20261127)
    ap.add_argument("--rides", type=int, default=6, help="at most this many rides (pyraptor: rounds), for the comparison")
    ap.add_argument("--reference-budget", type=float, default=150, help="seconds of pyraptor queries at most")
    ap.add_argument("--reference-queries", type=int, default=1000, help="pyraptor queries at most")
    ap.add_argument("--work", default="/tmp/waymark-transit", help="for the feed, pyraptor's pickle and the answers")
    ap.add_argument("--python", help="the interpreter with pyraptor (default: Benchmarks/transit/.venv/bin/python)")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--skip-reference", action="store_true", help="Waymark only")
    ap.add_argument("--fresh", action="store_true", help="make pyraptor's timetable again even if the feed is unchanged")
    ap.add_argument("--examples", type=int, default=5, help="differing queries to show")
    ap.add_argument("--json", help="write every figure and answer here")
    ap.add_argument("--report-only", action="store_true", help="print the table again from the last run's answers in --work")
    args = ap.parse_args()
    if args.report_only:
        name = f"lumera-{args.seed}" if args.feed == "lumera" else "milan"
        with open(os.path.join(args.work, f"waymark-{name}.json")) as f:
            ours = json.load(f)
        theirs_json = os.path.join(args.work, f"pyraptor-{name}.json")
        theirs = json.load(open(theirs_json)) if os.path.exists(theirs_json) else None
        report(args, subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(), ours, theirs)
        return

    python = args.python or (os.path.join(HERE, ".venv/bin/python") if os.path.exists(os.path.join(HERE, ".venv/bin/python")) else sys.executable)
    binary = os.path.join(HERE, ".build/release/transit-benchmark")
    os.makedirs(args.work, exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"transit benchmark: commit {commit}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")

    if not args.skip_build:
        step("swift build -c release", ["swift", "build", "-c", "release"], cwd=HERE)

    feed = os.path.join(args.work, f"lumera-{args.seed}" if args.feed == "lumera" else "milan")
    if args.feed == "lumera":
        print(f"== generating the city (seed {args.seed})", flush=True)
        started = time.perf_counter()
        made = citygen.generate(feed, args.seed)
        print(f"{made['stations']} stations, {made['platforms']} platforms, {made['routes']} routes, {made['trips']} trips, "
              f"{made['stop_times']} stop times in {time.perf_counter() - started:.1f} s → {feed}")
    else:
        year = args.date[:4]
        step("the demo Milan feed", [binary, "milan", "--out", feed, "--from", f"{year}0101", "--to", f"{year}1231"])

    ours_json = os.path.join(args.work, f"waymark-{os.path.basename(feed)}.json")
    step("Waymark", [binary, "run", "--feed", feed, "--date", args.date, "--queries", str(args.queries),
                     "--seed", str(args.query_seed), "--rides", str(args.rides), "--json", ours_json])
    with open(ours_json) as f:
        ours = json.load(f)

    theirs = None
    if not args.skip_reference and subprocess.run([python, "-c", "import pyraptor, pandas"], capture_output=True).returncode != 0:
        print(f"pyraptor is not installed for {python}: python3 -m venv {HERE}/.venv && "
              f"{HERE}/.venv/bin/pip install -r {HERE}/requirements.txt; Waymark's figures only")
    elif not args.skip_reference:
        reference = os.path.join(args.work, "pyraptor-" + os.path.basename(feed))
        stamp_path = os.path.join(reference, "stamp")
        stamp = fingerprint(feed, args.date)
        reuse = not args.fresh and os.path.exists(stamp_path) and open(stamp_path).read() == stamp
        theirs_json = os.path.join(args.work, f"pyraptor-{os.path.basename(feed)}.json")
        command = [python, os.path.join(HERE, "reference.py"), "--feed", feed, "--date", args.date, "--queries", ours_json,
                   "--work", reference, "--budget", str(args.reference_budget), "--limit", str(args.reference_queries), "--out", theirs_json]
        if reuse:
            command.append("--reuse")
            print("(pyraptor's timetable pickle is reused: same feed and date)")
        elif os.path.exists(stamp_path):
            os.remove(stamp_path)
        step("pyraptor", command)
        with open(stamp_path, "w") as f:
            f.write(stamp)
        with open(theirs_json) as f:
            theirs = json.load(f)

    report(args, commit, ours, theirs)


def report(args, commit, ours, theirs):
    qs = ours["queries"]
    read = ours["read"]
    read_s = percentile(read["seconds"], 0.5)
    c = ours["counts"]
    same_ms = [q["ms"] for q in qs]
    app_ms = [q["appMs"] for q in qs]
    print()
    print(f"Feed {os.path.basename(ours['feed'])}: {c['stops']:,} stops ({c['stations']:,} stations served), {c['routes']} routes, "
          f"{c['trips']:,} trips, {c['stopTimes']:,} stop times; {ours['date']}: {c['patterns']} patterns, {c['dayTrips']:,} trips")
    print(f"GTFSReader.read: {read_s:.2f} s for {read['rows']:,} rows ({read['bytes'] / 1e6:.1f} MB) = {read['rows'] / read_s:,.0f} rows/s; "
          f"stop_times {read['stopTimeRows'] / read_s:,.0f} rows/s")
    t = ours["timetable"]
    print(f"Timetable(feed:date:): {t['appSeconds']:.2f} s (the app's walking); {t['sameRulesSeconds']:.2f} s (the reference's rules)")
    if theirs and theirs.get("preprocess_seconds") is not None:
        print(f"pyraptor preprocessing (GTFS → pickle): {theirs['preprocess_seconds']:.0f} s; ", end="")
    if theirs:
        print(f"pyraptor pickle load: {theirs['load_seconds']:.1f} s")
    print()

    rows = [("Waymark, the reference's rules", same_ms), ("Waymark, as the app plans", app_ms)]
    answered = [r for r in theirs["results"] if r["ms"] is not None] if theirs else []
    if answered:
        ids = {r["id"] for r in answered}
        rows.append(("pyraptor, the same rules", [r["ms"] for r in answered]))
        rows.append(("Waymark on the queries pyraptor answered", [q["ms"] for q in qs if q["id"] in ids]))
    width = max(len(r[0]) for r in rows)
    print(f"{'per query (ms)':<{width}}  {'queries':>7}  {'p50':>9}  {'p90':>9}  {'p99':>9}  {'max':>9}")
    for name, xs in rows:
        print(f"{name:<{width}}  {len(xs):>7}  {percentile(xs, .5):>9.2f}  {percentile(xs, .9):>9.2f}  {percentile(xs, .99):>9.2f}  {max(xs):>9.2f}")
    print(f"goal: p99 ≤ 20 ms — the reference's rules {'met' if percentile(same_ms, .99) <= 20 else 'not met'} "
          f"({percentile(same_ms, .99):.1f} ms), as the app plans {'met' if percentile(app_ms, .99) <= 20 else 'not met'} ({percentile(app_ms, .99):.1f} ms)")

    summary = {"commit": commit, "feed": ours["feed"], "date": ours["date"], "counts": c,
               "read_seconds": read_s, "rows_per_second": read["rows"] / read_s, "timetable": t,
               "waymark_same_rules": stats(same_ms), "waymark_app": stats(app_ms)}
    if answered:
        theirs_ms = [r["ms"] for r in answered]
        subset = [q["ms"] for q in qs if q["id"] in ids]
        p50, p99 = percentile(theirs_ms, .5) / percentile(same_ms, .5), percentile(theirs_ms, .99) / percentile(same_ms, .99)
        p50s, p99s = percentile(theirs_ms, .5) / percentile(subset, .5), percentile(theirs_ms, .99) / percentile(subset, .99)
        print(f"pyraptor / Waymark: p50 {p50:,.0f}×, p99 {p99:,.0f}× (Waymark's over all {len(qs)} queries); "
              f"on the same {len(answered)} queries p50 {p50s:,.0f}×, p99 {p99s:,.0f}× (goal ≥ 20×)")
        if len(answered) < 100:
            print(f"  (pyraptor's p99 is over {len(answered)} queries: the slowest of them, or close to it)")
        by_id = {q["id"]: q for q in qs}
        equal, differ, both_none = [], [], 0
        for r in answered:
            q = by_id[r["id"]]
            if q.get("arrival") == r["arrival"]:
                equal.append(r["id"])
                both_none += q.get("arrival") is None
            else:
                differ.append((q, r))
        print(f"arrival times: {len(equal)} of {len(answered)} equal ({both_none} unreachable by both), {len(differ)} differ")
        for q, r in differ[:args.examples]:
            print(f"  query {q['id']}: {q['origin']} → {q['destination']} leaving {clock(q['departure'])}: "
                  f"Waymark {clock(q.get('arrival'))} ({q.get('rides')} rides: {'; '.join(q['legs'])}), "
                  f"pyraptor {clock(r['arrival'])} ({r['rides']} rides: {'; '.join(r['legs'] or [])})")
        summary.update({"pyraptor": stats(theirs_ms), "waymark_same_queries": stats(subset),
                        "ratio_p50": p50, "ratio_p99": p99, "ratio_p50_same_queries": p50s, "ratio_p99_same_queries": p99s,
                        "arrivals_equal": len(equal), "arrivals_differ": len(differ),
                        "pyraptor_preprocess_seconds": theirs.get("preprocess_seconds"), "pyraptor_load_seconds": theirs["load_seconds"],
                        "differences": [{"waymark": q, "pyraptor": r} for q, r in differ]})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
        print(f"wrote {args.json}")


def stats(xs):
    return {"count": len(xs), "p50": percentile(xs, .5), "p90": percentile(xs, .9), "p99": percentile(xs, .99), "max": max(xs),
            "mean": sum(xs) / len(xs)}


if __name__ == "__main__":
    main()
