#!/usr/bin/env python3
"""Waymark parking benchmark: a release-built server driven from separate processes.

Reports, per database, in one run:
  1. the no-op route (GET /health) requests/s: the reference for this machine and build
  2. single-event ingest events/s and its ratio to (1)
  3. batched ingest (100 events a request) events/s
  4. occupancy snapshot requests/s with p50/p99 latency at 50 concurrent clients
  5. live-stream delivery latency p50/p99 with N connected subscribers, from ingest
     acknowledgement (and from request start) to receipt
  6. the server's peak RSS

Timing never fails anything: this prints figures. Needs wrk (Debian package) and, for
PostgreSQL, a server URL whose user may create databases.

  swift build -c release --product waymark
  python3 Benchmarks/run.py [--postgres postgres://postgres@127.0.0.1:5432/postgres]
"""
import argparse, asyncio, json, os, re, resource, shutil, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request, uuid

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
    env = {**os.environ, "WAYMARK_LOG_LEVEL": "error"}
    subprocess.run([binary, "demo", "--database", database], check=True, env=env, capture_output=True)
    key = subprocess.run([binary, "gateway", "create", "bench", "--database", database], check=True, env=env,
                         capture_output=True, text=True).stdout.strip()
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--database", database, "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, preexec_fn=raise_nofile)
    base = f"http://127.0.0.1:{port}"
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
        r = {"database": kind, "spots": len(spots)}
        r["noop"] = wrk(base + "/health", d, 64)
        r["ingest_single"] = wrk(base, d, 64, script, {"SENSORS": sensors_file, "BATCH": "1", "KEY": key})
        r["ingest_batch100"] = wrk(base, d, 64, script, {"SENSORS": sensors_file, "BATCH": "100", "KEY": key})
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
        if drop:
            drop()
        shutil.rmtree(work, ignore_errors=True)


def report(r):
    noop = r["noop"]["rps"]
    single = r["ingest_single"]["rps"]
    batch = r["ingest_batch100"]["rps"] * 100
    occ, live = r["occupancy"], r["live"]
    print(f"\n== {r['database']} ({r['spots']} spots) ==")
    print(f"(1) no-op GET /health           {noop:>10,.0f} req/s   (reference)")
    print(f"(2) ingest, 1 event/request     {single:>10,.0f} events/s  = {single / noop:.2f} × (1)   target ≥ 0.5")
    print(f"(3) ingest, 100 events/request  {batch:>10,.0f} events/s  = {batch / noop:.1f} × (1)   target ≥ 100,000 on SQLite")
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
    p.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
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
