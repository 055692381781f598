#!/usr/bin/env python3
"""Waymark parking benchmark: a release-built server driven from separate processes.

Reports, per database, in one run:
  1. the no-op route (GET /health) requests/s: the reference for this machine and build
  2. single-event ingest events/s and its ratio to (1)
  3. batched ingest (100 events a request) events/s
     ((1), (2) and (3) after a warm-up, in turns over --rounds rounds: medians and ranges)
  4. occupancy snapshot requests/s with p50/p99 latency at 50 concurrent clients
  5. live-stream delivery latency p50/p99 with N connected subscribers, from ingest
     acknowledgement (and from request start) to receipt
  6. the server's peak RSS
and, after the server has stopped, the database's own write rate for the work of (2)'s and
(3)'s average commits (the same rows read, updated and appended by a client with nothing in
between), the reference that (2) and (3) are also compared with.

Timing never fails anything: this prints figures. Needs wrk (Debian package) and, for
PostgreSQL, a server URL whose user may create databases.

  swift build -c release --product waymark
  python3 Benchmarks/run.py [--postgres postgres://postgres@127.0.0.1:5432/postgres]
"""
import argparse, asyncio, glob, json, os, re, resource, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def wrk(url, seconds, connections, script=None, env=None):
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        cmd += ["-s", script]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, env={**os.environ, **(env or {})}, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    lat = {}
    for pct, value, unit in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.M):
        lat[pct] = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return {"rps": rps, "p50_ms": lat.get("50"), "p99_ms": lat.get("99"),
            "non2xx": int(non2xx.group(1)) if non2xx else 0, "socket_errors": errors.group(1) if errors else None}


# The scrape token the benchmark's server is given, to read its own counters at /metrics.
METRICS_TOKEN = "benchmark-scrape-token"


def ingest_counters(base):
    """The server's own ingest counters: commits, events (all outcomes) and commit seconds."""
    request = urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as r:
        text = r.read().decode()
    def total(pattern):
        return sum(float(v) for v in re.findall(r"^" + pattern + r"(?:\{[^}]*\})? ([\d.e+-]+)$", text, re.M))
    return {"commits": total("waymark_ingest_commits_total"), "events": total("waymark_ingest_events_total"),
            "accepted": total(r'waymark_ingest_events_total\{outcome="accepted"\}'),
            "commit_seconds": total("waymark_ingest_commit_duration_seconds_sum")}


def median_run(runs):
    """The run with the median rate, and the range of all rates."""
    ordered = sorted(runs, key=lambda x: x["rps"])
    chosen = dict(ordered[len(ordered) // 2])
    chosen["rps_all"] = [x["rps"] for x in runs]
    chosen["non2xx"] = sum(x["non2xx"] for x in runs)
    chosen["socket_errors"] = next((x["socket_errors"] for x in runs if x["socket_errors"]), None)
    return chosen


def combined_shape(pairs):
    """The group commit's shape over several measured runs (not the warm-up between them)."""
    keys = ("commits", "events", "accepted", "commit_seconds")
    total = {k: sum(after[k] - before[k] for before, after in pairs) for k in keys}
    zero = {k: 0 for k in keys}
    return commit_shape(zero, total)


def commit_shape(before, after):
    commits = after["commits"] - before["commits"]
    events = after["events"] - before["events"]
    return {"commits": int(commits), "events_per_commit": events / commits if commits else None,
            "accepted_fraction": (after["accepted"] - before["accepted"]) / events if events else None,
            "commit_ms": 1000 * (after["commit_seconds"] - before["commit_seconds"]) / commits if commits else None}


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


# ---- live latency -------------------------------------------------------------------------

LOT_RE = re.compile(rb'"lotId":"([0-9a-f-]+)","ordinal":(\d+)')


async def subscriber(host, port, path, ready, received, stop):
    """Reads one live stream and notes when each (lot, ordinal) change arrived. Parses with a
    regular expression rather than JSON: with 1,000 subscribers the client's own CPU would
    otherwise dominate the latency it measures."""
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    signalled = False
    tail = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                break
            now = time.perf_counter()
            if not signalled and b": connected" in chunk:
                signalled = True
                ready.release()
            data = tail + chunk
            cut = data.rfind(b"\n")
            tail = data[cut + 1:]
            for m in LOT_RE.finditer(data, 0, cut + 1):
                received.setdefault((m.group(1).decode(), int(m.group(2))), []).append(now)
    finally:
        writer.close()


async def post(reader, writer, host, body, key):
    writer.write((f"POST /v1/gateway/events HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                  f"Authorization: Bearer {key}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = int(re.search(rb"content-length: (\d+)", head, re.I).group(1))
    await reader.readexactly(length)
    return head.split(b" ")[1] == b"200"


async def live_latency(host, port, site_id, spots, key, subscribers, events, rate):
    # Only a change of state makes a live event: use spots that are free now and park on them.
    states = {}
    for lot_id in {s[1] for s in spots}:
        states[lot_id] = get_json(f"http://{host}:{port}/v1/lots/{lot_id}/spot-states")["states"]
    spots = [s for s in spots if states[s[1]][s[2]] == "f"][:events]
    events = len(spots)
    received, stop, ready = {}, asyncio.Event(), asyncio.Semaphore(0)
    path = f"/v1/sites/{site_id}/live"
    tasks = [asyncio.create_task(subscriber(host, port, path, ready, received, stop)) for _ in range(subscribers)]
    for _ in range(subscribers):
        await asyncio.wait_for(ready.acquire(), 60)
    reader, writer = await asyncio.open_connection(host, port)
    sent, acked, ok = {}, {}, 0
    now_iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for i in range(events):
        sensor, lot_id, ordinal = spots[i % len(spots)]
        body = json.dumps({"events": [{"sensorId": sensor, "occupied": True, "observedAt": now_iso,
                                        "sequence": 10**12 + i}]}).encode()
        t0 = time.perf_counter()
        ok += await post(reader, writer, host, body, key)
        t1 = time.perf_counter()
        sent[(lot_id, ordinal)], acked[(lot_id, ordinal)] = t0, t1
        await asyncio.sleep(max(0, 1 / rate - (t1 - t0)))
    # Wait until deliveries stop growing (the client may still be reading), at most 30 s.
    last, still = -1, 0
    for _ in range(60):
        await asyncio.sleep(0.5)
        total = sum(len(v) for v in received.values())
        still = still + 1 if total == last else 0
        if still >= 4 or total >= subscribers * events:
            break
        last = total
    stop.set()
    writer.close()
    for t in tasks:
        t.cancel()
    from_ack, from_send, missing = [], [], 0
    for k, t_ack in acked.items():
        times = received.get(k, [])
        missing += subscribers - len(times)
        from_ack += [max(0.0, t - t_ack) * 1000 for t in times]
        from_send += [(t - sent[k]) * 1000 for t in times]

    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(len(values) * p))] if values else None

    return {"subscribers": subscribers, "events": events, "accepted_requests": ok, "deliveries": len(from_ack),
            "missing_deliveries": missing,
            "from_ack_p50_ms": pct(from_ack, 0.5), "from_ack_p99_ms": pct(from_ack, 0.99),
            "from_send_p50_ms": pct(from_send, 0.5), "from_send_p99_ms": pct(from_send, 0.99)}


# ---- the database's own write rate ------------------------------------------------------------

def lot_json_length(rows):
    """How long a lot's counters are as the live rows store them (their first line)."""
    return int(rows[0][0]) if rows and rows[0][0] else 250


def raw_sqlite(path, batch, seconds):
    """What an ingest commit does to the file, done directly: read the spots' states, update
    them, move the lots' counters, append one live row per lot with its spots' changes;
    BEGIN IMMEDIATE … COMMIT in WAL with synchronous FULL, as the server runs it. Statements
    are prepared once (executemany), the fastest way a client has to write these rows."""
    import sqlite3
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=FULL")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    spots = db.execute("SELECT spots.id, lot_id, site_id, ordinal FROM spots JOIN lots ON lots.id = spots.lot_id ORDER BY spots.id").fetchall()
    lot_json = "x" * lot_json_length(db.execute(
        "SELECT instr(payload, char(10)) - 1 FROM live_events WHERE kind = 'spots' ORDER BY id DESC LIMIT 1").fetchall())
    commits, events, offset, sequence = 0, 0, 0, 10**13
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        chosen = [spots[(offset + i) % len(spots)] for i in range(batch)]
        offset += batch
        now = int(time.time() * 1000)
        ids = json.dumps([c[0] for c in chosen])
        db.execute("BEGIN IMMEDIATE")
        states = db.execute("SELECT spot_id, state, observed_at, sequence FROM spot_states WHERE spot_id IN (SELECT value FROM json_each(?))", (ids,)).fetchall()
        flipped = {row[0]: ("f" if row[1] == "o" else "o") for row in states}
        sequence += 1
        db.executemany("UPDATE spot_states SET state = ?, observed_at = ?, sequence = ? WHERE spot_id = ?",
                       [(flipped[c[0]], now, sequence, c[0]) for c in chosen])
        by_lot = {}
        for c in chosen:
            by_lot.setdefault((c[1], c[2]), []).append(c)
        db.executemany("UPDATE lots SET count_o = count_o, version = version + 1, last_change_at = ? WHERE id = ?",
                       [(now, lot) for lot, _ in by_lot])
        db.executemany("INSERT INTO live_events (id, event_count, site_id, lot_id, at, kind, payload) "
                       "VALUES (COALESCE((SELECT id + event_count FROM live_events ORDER BY id DESC LIMIT 1), 1), ?, ?, ?, ?, 'spots', ?)",
                       [(len(cs), site, lot, now, lot_json + "".join(f"\n{c[3]} {flipped[c[0]]} {now}" for c in cs))
                        for (lot, site), cs in by_lot.items()])
        db.execute("COMMIT")
        commits += 1
        events += batch
    elapsed = time.perf_counter() - start
    db.close()
    return {"batch": batch, "commits": commits, "events_per_s": events / elapsed, "commit_ms": 1000 * elapsed / commits}


def raw_postgres(url, batch, seconds):
    """The same on PostgreSQL, one transaction of set-based statements a commit, driven by
    pgbench (one client) so that no client library's overhead is counted."""
    pg_bin = sorted(glob.glob("/usr/lib/postgresql/*/bin/pgbench"))
    pgbench = pg_bin[-1] if pg_bin else shutil.which("pgbench")
    if not pgbench:
        return None
    psql = lambda query: subprocess.run(["psql", url, "-Atc", query], capture_output=True, text=True, check=True).stdout.strip()
    count = int(psql("SELECT count(*) FROM spots"))
    json_length = lot_json_length([[psql("SELECT strpos(payload, E'\\n') - 1 FROM live_events WHERE kind = 'spots' ORDER BY id DESC LIMIT 1") or 0]])
    # The spots numbered once, so that choosing a commit's spots costs an index range scan.
    subprocess.run(["psql", url, "-qc", "CREATE TABLE IF NOT EXISTS bench_spot_order AS SELECT (row_number() OVER (ORDER BY spots.id))::int AS n,"
                    " spots.id, lot_id, site_id, ordinal FROM spots JOIN lots ON lots.id = spots.lot_id",
                    "-c", "CREATE UNIQUE INDEX IF NOT EXISTS bench_spot_order_n ON bench_spot_order (n)"], check=True, capture_output=True)
    script = tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False)
    chosen = f"SELECT id, lot_id, site_id, ordinal FROM bench_spot_order WHERE n >= :off AND n < :off + {batch}"
    now = "(extract(epoch from now()) * 1000)::bigint"
    script.write(f"""\\set off random(1, {max(1, count - batch + 1)})
BEGIN;
SELECT count(*) FROM (SELECT state FROM spot_states WHERE spot_id IN (SELECT id FROM ({chosen}) c) FOR UPDATE) s;
UPDATE spot_states SET state = CASE state WHEN 'o' THEN 'f' ELSE 'o' END, observed_at = {now}, sequence = COALESCE(sequence, 0) + 1 FROM ({chosen}) c WHERE spot_states.spot_id = c.id;
UPDATE lots SET version = version + 1, last_change_at = {now} WHERE id IN (SELECT lot_id FROM ({chosen}) c);
INSERT INTO live_events (id, event_count, site_id, lot_id, at, kind, payload)
SELECT next.id + SUM(g.events) OVER (ORDER BY g.lot_id) - g.events, g.events, g.site_id, g.lot_id, {now}, 'spots', repeat('x', {json_length}) || g.lines
FROM (SELECT lot_id, site_id, count(*) AS events, string_agg(E'\\n' || ordinal || ' o ' || {now}, '') AS lines FROM ({chosen}) c GROUP BY lot_id, site_id) g,
     (SELECT COALESCE((SELECT id + event_count FROM live_events ORDER BY id DESC LIMIT 1), 1) AS id) next;
COMMIT;
""")
    script.close()
    out = subprocess.run([pgbench, "-n", "-c1", "-T", str(seconds), "-f", script.name, url], capture_output=True, text=True)
    os.unlink(script.name)
    tps = re.search(r"tps = ([\d.]+)", out.stdout)
    if not tps:
        print(out.stdout + out.stderr, file=sys.stderr)
        return None
    t = float(tps.group(1))
    return {"batch": batch, "commits": int(t * seconds), "events_per_s": t * batch, "commit_ms": 1000 / t}


# ---- one database ----------------------------------------------------------------------------

def run_database(kind, args):
    binary = args.binary
    work = tempfile.mkdtemp(prefix="waymark-bench-")
    if kind == "sqlite":
        database, drop = os.path.join(work, "bench.sqlite"), None
    else:
        name = "waymark_bench_" + uuid.uuid4().hex[:12]
        subprocess.run(["psql", args.postgres, "-qc", f"CREATE DATABASE {name}"], check=True)
        database = re.sub(r"/[^/]*$", "/" + name, args.postgres)
        drop = lambda: subprocess.run(["psql", args.postgres, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])
    env = {**os.environ, "WAYMARK_LOG_LEVEL": "error", "WAYMARK_METRICS_TOKEN": METRICS_TOKEN}
    subprocess.run([binary, "demo", "--database", database], check=True, env=env, capture_output=True)
    key = subprocess.run([binary, "gateway", "create", "bench", "--database", database], check=True, env=env,
                         capture_output=True, text=True).stdout.strip()
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--database", database, "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, preexec_fn=raise_nofile)
    base = f"http://127.0.0.1:{port}"
    r = {"database": kind}
    try:
        for _ in range(200):
            try:
                get_json(base + "/ready"); break
            except Exception:
                time.sleep(0.1)
        site = get_json(base + "/v1/sites")["sites"][0]["id"]
        spots = []
        for lot in get_json(f"{base}/v1/sites/{site}/lots")["lots"]:
            spots += [(s["sensorId"], lot["id"], s["ordinal"]) for s in get_json(f"{base}/v1/lots/{lot['id']}/spots")["spots"]]
        sensors_file = os.path.join(work, "sensors.txt")
        with open(sensors_file, "w") as f:
            f.write("\n".join(s[0] for s in spots) + "\n")
        script = os.path.join(ROOT, "Benchmarks", "wrk", "ingest.lua")
        d = args.duration
        r["spots"] = len(spots)
        single = {"SENSORS": sensors_file, "BATCH": "1", "KEY": key}
        batched = {"SENSORS": sensors_file, "BATCH": "100", "KEY": key}
        # A fresh process is slower for its first seconds; and this kind of machine's speed
        # drifts by a quarter within a minute, so (1), (2) and (3) are measured in turns, a
        # round at a time, and each is the median of its rounds (the ratio: of each round's).
        for target, script_env in ((base + "/health", None), (base, single), (base, batched)):
            wrk(target, 3, 64, script if script_env else None, script_env)
        rounds = {"noop": [], "ingest_single": [], "ingest_batch100": []}
        shapes = {"ingest_single": [], "ingest_batch100": []}
        for _ in range(args.rounds):
            rounds["noop"].append(wrk(base + "/health", d, 64))
            for phase, env in (("ingest_single", single), ("ingest_batch100", batched)):
                before = ingest_counters(base)
                rounds[phase].append(wrk(base, d, 64, script, env))
                shapes[phase].append((before, ingest_counters(base)))
        for phase, runs in rounds.items():
            r[phase] = median_run(runs)
        r["single_ratios"] = [s["rps"] / n["rps"] for s, n in zip(rounds["ingest_single"], rounds["noop"])]
        for phase, pairs in shapes.items():
            r[phase]["commits"] = commit_shape(pairs[0][0], pairs[-1][1]) if len(pairs) == 1 else combined_shape(pairs)
        r["occupancy"] = wrk(f"{base}/v1/sites/{site}/occupancy", d, 50)
        r["live"] = asyncio.run(live_latency("127.0.0.1", port, site, spots, key, args.subscribers, args.events, args.rate))
        r["peak_rss_mb"] = peak_rss_mb(server.pid)
        return r
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        # With the server stopped, the database alone does the work of (2)'s and (3)'s average commits.
        for phase in ("ingest_single", "ingest_batch100"):
            batch = round(r.get(phase, {}).get("commits", {}).get("events_per_commit") or 0)
            if batch > 0:
                try:
                    r[phase]["raw_write"] = raw_sqlite(database, batch, d) if kind == "sqlite" else raw_postgres(database, batch, d)
                except Exception as e:
                    print(f"raw write reference failed: {e!r}", file=sys.stderr)
        if drop:
            drop()
        shutil.rmtree(work, ignore_errors=True)


def report(r):
    noop = r["noop"]["rps"]
    single = r["ingest_single"]["rps"]
    batch = r["ingest_batch100"]["rps"] * 100
    occ, live = r["occupancy"], r["live"]
    ratios = sorted(r["single_ratios"])
    span = lambda xs, k=1: f"{min(xs) * k:,.0f}–{max(xs) * k:,.0f}"
    print(f"\n== {r['database']} ({r['spots']} spots; medians of {len(ratios)} rounds, ranges in brackets) ==")
    print(f"(1) no-op GET /health           {noop:>10,.0f} req/s   [{span(r['noop']['rps_all'])}]  (reference)")
    print(f"(2) ingest, 1 event/request     {single:>10,.0f} events/s  [{span(r['ingest_single']['rps_all'])}]"
          f"  = {ratios[len(ratios) // 2]:.2f} × (1) [{ratios[0]:.2f}–{ratios[-1]:.2f}, round by round]   target ≥ 0.5")
    print(f"(3) ingest, 100 events/request  {batch:>10,.0f} events/s  [{span(r['ingest_batch100']['rps_all'], 100)}]"
          f"  = {batch / noop:.1f} × (1)   target ≥ 100,000 on SQLite")
    for name, key, rate in (("(2)", "ingest_single", single), ("(3)", "ingest_batch100", batch)):
        c = r[key].get("commits") or {}
        if c.get("commits"):
            print(f"    {name} group commit: {c['events_per_commit']:,.1f} events a commit, {c['commit_ms']:.1f} ms a commit (server's own timing),"
                  f" {100 * c['accepted_fraction']:.0f} % accepted")
        raw = r[key].get("raw_write")
        if raw:
            print(f"        the database alone, {raw['batch']:,} events a commit: {raw['events_per_s']:,.0f} events/s, {raw['commit_ms']:.1f} ms a commit;"
                  f" {name} = {rate / raw['events_per_s']:.2f} × that")
    print(f"(4) occupancy snapshot          {occ['rps']:>10,.0f} req/s   p50 {occ['p50_ms']:.2f} ms  p99 {occ['p99_ms']:.2f} ms at 50 clients   target p99 ≤ 10 ms")
    print(f"(5) live delivery, {live['subscribers']} subscribers: ack→receipt p50 {live['from_ack_p50_ms']:.1f} ms  p99 {live['from_ack_p99_ms']:.1f} ms;"
          f" send→receipt p50 {live['from_send_p50_ms']:.1f} ms  p99 {live['from_send_p99_ms']:.1f} ms;"
          f" {live['deliveries']:,} deliveries, {live['missing_deliveries']} missing   target p99 ≤ 100 ms")
    print(f"(6) peak RSS                    {r['peak_rss_mb']:>10,.0f} MB   target ≤ 256 MB")
    bad = [k for k in ("noop", "ingest_single", "ingest_batch100", "occupancy") if r[k]["non2xx"] or r[k]["socket_errors"]]
    if bad:
        print("    note: non-2xx responses or socket errors in " + ", ".join(f"{k} ({r[k]['non2xx']}, {r[k]['socket_errors']})" for k in bad))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "waymark"))
    p.add_argument("--postgres", help="postgres:// URL of a server whose user may create databases")
    p.add_argument("--duration", type=int, default=8, help="seconds per wrk run")
    p.add_argument("--rounds", type=int, default=3, help="rounds of (1), (2) and (3), measured in turns")
    p.add_argument("--subscribers", type=int, default=1000)
    p.add_argument("--events", type=int, default=300, help="events sent during the live test")
    p.add_argument("--rate", type=float, default=50, help="events/s during the live test")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} not found: swift build -c release --product waymark")
    raise_nofile()
    results = [run_database("sqlite", args)]
    if args.postgres:
        results.append(run_database("postgres", args))
    for r in results:
        report(r)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
