#!/usr/bin/env python3
"""The reference side of the transit benchmark: pyraptor (PyPI `pyraptor`, see requirements.txt)
on the same feed and the same queries as Waymark.

pyraptor builds its timetable from a GTFS folder with `python -m pyraptor.gtfs.timetable` and
keeps it as a pickle; a query is `RaptorAlgorithm(timetable).run(stops, departure, rounds)`, the
earliest arrival at every stop. Its reader expects a feed shaped like the Dutch railways' one
it was written for, so the feed is adapted first, without changing what runs when:

- agency.txt: one agency, named as the reader is told to keep (every route is kept);
- trips.txt: `trip_short_name` a number, `trip_long_name` the route's name (it reads both);
- calendar_dates.txt: the services that run on the day, as added dates (it reads no calendar.txt);
- stops.txt: pyraptor's station is the `stop_name`, and it keeps only stops with a
  `parent_station`; so every stop is named after its GTFS station (its parent, or itself when it
  has none) and given a parent, and `stop_code` and `platform_code` are filled in;
- stop_times.txt is the feed's own (a link to it), unless the feed has frequencies.txt or calls
  without times, which pyraptor does not read: then the trips are written out and every call
  timed (`write_timed_stop_times`).

Two faults of pyraptor are worked around: its preprocessing is quadratic in the trips (see
PREPROCESS), and its `run_raptor` can read an empty round (see `run_queries`).

A change of vehicle within a station costs pyraptor two minutes (its TRANSFER_COST); there are no
walks between stations. Waymark's side of the comparison uses the same rules (see
TransitBenchmark.swift: `sameRules`).

    python3 Benchmarks/transit/reference.py --feed /tmp/lumera --date 20261127 \
        --queries /tmp/transit-waymark.json --work /tmp/transit-pyraptor [--budget 120]
"""
import argparse
import csv
import datetime
import json
import math
import os
import subprocess
import sys
import time

AGENCY = "Benchmark"


def read_csv(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def write_csv(folder, name, header, rows):
    with open(os.path.join(folder, name), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def services_on(folder, date):
    """The service ids that run on `date` (YYYYMMDD), by calendar.txt and calendar_dates.txt."""
    day = datetime.date(int(date[:4]), int(date[4:6]), int(date[6:]))
    weekday = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.weekday()]
    running = set()
    for c in read_csv(folder, "calendar.txt"):
        if c["start_date"].strip() <= date <= c["end_date"].strip() and c[weekday].strip() == "1":
            running.add(c["service_id"].strip())
    for e in read_csv(folder, "calendar_dates.txt"):
        if e["date"].strip() == date:
            (running.add if e["exception_type"].strip() == "1" else running.discard)(e["service_id"].strip())
    return running


def adapt(feed, date, out):
    """A copy of the feed that pyraptor's GTFS reader takes, in the folder `out`."""
    os.makedirs(out, exist_ok=True)
    write_csv(out, "agency.txt", ["agency_id", "agency_name", "agency_url", "agency_timezone"],
              [["A", AGENCY, "https://example.org", "Europe/Rome"]])
    routes = read_csv(feed, "routes.txt")
    write_csv(out, "routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"],
              [[r["route_id"], "A", r.get("route_short_name", ""), r.get("route_long_name", ""), r["route_type"]] for r in routes])
    names = {r["route_id"]: r.get("route_short_name") or r.get("route_long_name") or r["route_id"] for r in routes}
    running = services_on(feed, date)
    write_csv(out, "calendar_dates.txt", ["service_id", "date", "exception_type"], [[s, date, 1] for s in sorted(running)])
    stops = read_csv(feed, "stops.txt")
    rows = []
    for n, s in enumerate(stops):
        if (s.get("location_type") or "0").strip() not in ("", "0"):
            continue
        station = (s.get("parent_station") or "").strip() or s["stop_id"]
        rows.append([s["stop_id"], f"C{n}", station, s["stop_lat"], s["stop_lon"], "STATION:" + station, s.get("platform_code") or "?"])
    write_csv(out, "stops.txt", ["stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon", "parent_station", "platform_code"], rows)

    trips = read_csv(feed, "trips.txt")
    frequencies = read_csv(feed, "frequencies.txt")
    link = os.path.join(out, "stop_times.txt")
    if os.path.lexists(link):
        os.remove(link)
    if not frequencies and not untimed_calls(feed):
        os.symlink(os.path.abspath(os.path.join(feed, "stop_times.txt")), link)
    else:
        trips = write_timed_stop_times(feed, out, [t for t in trips if t["service_id"] in running], frequencies, stops)
    write_csv(out, "trips.txt", ["route_id", "service_id", "trip_id", "trip_short_name", "trip_long_name"],
              [[t["route_id"], t["service_id"], t["trip_id"], n + 1, names.get(t["route_id"], "")] for n, t in enumerate(trips)])


def untimed_calls(feed):
    """Whether stop_times.txt has calls without times (pyraptor needs every one timed)."""
    with open(os.path.join(feed, "stop_times.txt"), newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader)
        a, d = header.index("arrival_time"), header.index("departure_time")
        return any(not row[a].strip() or not row[d].strip() for row in reader if row)


def seconds(text):
    h, m, s = text.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


def hms(t):
    return f"{t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}"


def distance(a, b):
    """Metres on a sphere, computed as Waymark's `Geo.distance` computes it (same order of operations)."""
    radius = 6_371_008.8
    p1, p2 = a[0] * math.pi / 180, b[0] * math.pi / 180
    dp = p2 - p1
    dl = (b[1] - a[1]) * math.pi / 180
    h = math.sin(dp / 2) * math.sin(dp / 2) + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) * math.sin(dl / 2)
    return 2 * radius * math.asin(min(1, math.sqrt(h)))


def write_timed_stop_times(feed, out, trips, frequencies, stops):
    """stop_times.txt with every call timed and every trip of frequencies.txt written out, for
    the trips given; returns the trips that it then has.

    pyraptor reads neither frequencies.txt nor calls without times. Both are filled in by the rules
    GTFS gives and Waymark's reader and timetable follow: a call without times gets the time
    between the timed calls around it shared by straight-line distance (evenly when the stops are
    all in one place), rounded to the second; a trip with frequencies runs from each window's
    start every headway while before its end, its times moved by the start less its first
    departure, and is not run by its own times.
    """
    position = {s["stop_id"]: (float(s["stop_lat"]), float(s["stop_lon"])) for s in stops}
    wanted = {t["trip_id"] for t in trips}
    calls = {}
    for row in read_csv(feed, "stop_times.txt"):
        if row["trip_id"] in wanted:
            calls.setdefault(row["trip_id"], []).append(row)
    windows = {}
    for w in frequencies:
        windows.setdefault(w["trip_id"], []).append((seconds(w["start_time"]), seconds(w["end_time"]), int(w["headway_secs"])))
    lines, kept = [], []
    for trip in trips:
        rows = sorted(calls.get(trip["trip_id"], []), key=lambda r: int(r["stop_sequence"]))
        if not rows:
            continue
        arrival = [seconds(r["arrival_time"]) if r["arrival_time"].strip() else None for r in rows]
        departure = [seconds(r["departure_time"]) if r["departure_time"].strip() else None for r in rows]
        last = 0
        for i in range(1, len(rows)):
            if arrival[i] is None:
                continue
            if i - last > 1:
                start, end = departure[last], arrival[i]
                run = [0.0]
                for j in range(last + 1, i + 1):
                    run.append(run[j - last - 1] + distance(position[rows[j - 1]["stop_id"]], position[rows[j]["stop_id"]]))
                for j in range(last + 1, i):
                    share = run[j - last] / run[-1] if run[-1] > 0 else (j - last) / (i - last)
                    arrival[j] = departure[j] = math.floor(start + (end - start) * share + 0.5)
            last = i
        runs = [(trip["trip_id"], 0)]
        if trip["trip_id"] in windows:
            runs = []
            for begin, end, headway in windows[trip["trip_id"]]:
                t = begin
                while t < end:
                    runs.append((f"{trip['trip_id']}@{t}", t - departure[0]))
                    t += max(1, headway)
        for trip_id, shift in runs:
            kept.append(dict(trip, trip_id=trip_id))
            for r, a, d in zip(rows, arrival, departure):
                lines.append(f"{trip_id},{hms(a + shift)},{hms(d + shift)},{r['stop_id']},{r['stop_sequence']}")
    with open(os.path.join(out, "stop_times.txt"), "w", encoding="utf-8") as f:
        f.write("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "\n".join(lines) + "\n")
    return kept


# pyraptor's preprocessing (`pyraptor.gtfs.timetable.main`), with one change: each trip gets its
# number when it is made rather than after its stop times are filed. pyraptor files every stop
# time in a dict under (trip, position) while the trip's id is still None, so all of a position's
# keys hash alike, and once the trip is numbered they no longer compare equal to the next one's:
# each insert walks every earlier trip's entry. On the benchmark's feed (16,509 trips) it had not
# finished after 15 minutes. The number is the one `Trips.add` then gives (1, 2, … in the same
# order), so the timetable it writes is the same; the queries run pyraptor's code unchanged.
PREPROCESS = """
import itertools, sys
from loguru import logger
import pyraptor.gtfs.timetable as gtfs
from pyraptor.model.structures import Trip
numbers = itertools.count(1)
def numbered_trip():
    trip = Trip()
    trip.id = next(numbers)
    return trip
gtfs.Trip = numbered_trip
logger.remove()
gtfs.main(sys.argv[1], sys.argv[2], sys.argv[3], [sys.argv[4]])
"""


def preprocess(adapted, date, pickle_dir):
    """pyraptor's preprocessing step (see PREPROCESS); returns its wall time in seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", PREPROCESS, adapted, pickle_dir, date, AGENCY], check=True, capture_output=True, text=True)
    return time.perf_counter() - started


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, round((len(s) - 1) * p))] if s else float("nan")


def run_queries(pickle_dir, queries, rounds, budget, limit):
    """Earliest arrivals for the queries, in order, until `budget` seconds or `limit` queries."""
    from loguru import logger
    logger.remove()  # pyraptor logs every round at INFO
    from pyraptor.dao.timetable import read_timetable
    from pyraptor.model.raptor import RaptorAlgorithm, best_stop_at_target_station, reconstruct_journey

    started = time.perf_counter()
    timetable = read_timetable(pickle_dir)
    load = time.perf_counter() - started
    results = []
    spent = 0.0
    for q in queries[:limit]:
        if spent >= budget:
            break
        origin, destination = timetable.stations.get(q["origin"]), timetable.stations.get(q["destination"])
        if origin is None or destination is None:
            results.append({"id": q["id"], "arrival": None, "ms": None, "rides": None, "missing": True})
            continue
        t0 = time.perf_counter()
        raptor = RaptorAlgorithm(timetable)
        raptor.run(origin.stops, q["departure"], rounds)
        # The best label of every round (`bag_star`), not the last round's as pyraptor's own
        # query_raptor.run_raptor reads: `run` stops early when no stop improved, and then the
        # last round's labels are never filled in (the answer would be "no journey").
        best = raptor.bag_star
        stop = best_stop_at_target_station(destination.stops, best)
        elapsed = time.perf_counter() - t0
        spent += elapsed
        arrival, legs = None, None
        if stop != 0:
            arrival = best[stop].earliest_arrival_time
            # pyraptor's journey has a leg per stop ridden past (it boards its own trip again at
            # each stop it improves); the legs of one trip in a row are one ride.
            rides = []
            for leg in reconstruct_journey(stop, best):
                if rides and rides[-1][0] == leg.trip:
                    rides[-1][2:] = [leg.to_stop, rides[-1][3], leg.arr]
                else:
                    rides.append([leg.trip, leg.from_stop, leg.to_stop, leg.dep, leg.arr])
            legs = [f"{trip.long_name} {a.station.name}→{b.station.name} {dep}-{arr}" for trip, a, b, dep, arr in rides]
        results.append({"id": q["id"], "arrival": arrival, "ms": elapsed * 1000, "rides": None if legs is None else len(legs), "legs": legs})
    return {"load_seconds": load, "results": results,
            "stations": len(timetable.stations), "stops": len(timetable.stops), "trips": len(timetable.trips),
            "stop_times": len(timetable.trip_stop_times), "routes": len(timetable.routes)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--feed", required=True)
    ap.add_argument("--date", required=True, help="YYYYMMDD")
    ap.add_argument("--queries", required=True, help="the JSON the Swift benchmark wrote")
    ap.add_argument("--work", required=True, help="a folder for the adapted feed and pyraptor's pickle")
    ap.add_argument("--budget", type=float, default=120, help="seconds of pyraptor queries at most")
    ap.add_argument("--limit", type=int, default=1000)
    ap.add_argument("--reuse", action="store_true", help="keep a pickle already in --work")
    ap.add_argument("--out", help="write pyraptor's answers here (JSON)")
    args = ap.parse_args()
    with open(args.queries) as f:
        ours = json.load(f)
    adapted, pickles = os.path.join(args.work, "gtfs"), os.path.join(args.work, "timetable")
    prep = None
    if not (args.reuse and os.path.exists(os.path.join(pickles, "timetable.pcl"))):
        adapt(args.feed, args.date, adapted)
        prep = preprocess(adapted, args.date, pickles)
        print(f"pyraptor preprocessing: {prep:.1f} s")
    out = run_queries(pickles, ours["queries"], ours["rides"], args.budget, args.limit)
    out["preprocess_seconds"] = prep
    ms = [r["ms"] for r in out["results"] if r["ms"] is not None]
    print(f"pyraptor: timetable loaded in {out['load_seconds']:.1f} s; {len(ms)} queries, p50 {percentile(ms, 0.5):.0f} ms, "
          f"p99 {percentile(ms, 0.99):.0f} ms, max {max(ms):.0f} ms")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f)


if __name__ == "__main__":
    main()
