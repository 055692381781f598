#!/usr/bin/env python3
"""Map images through Waymark's tile proxy (PRK-20) against fetching them directly.

Two Waymark servers from the same build: the upstream serves map images as static files from a
web folder (the stand-in for a tile server: the sandbox has no internet), the counting server
has `WAYMARK_MAP_COUNT_USAGE=1` and fetches every image from the upstream, counting it per day.
Reports, after a warm-up, in turns over --rounds rounds (medians):

  1. the counting server's no-op route (GET /health): the reference for this machine and build
  2. an image straight from the upstream (what a browser does without counting)
  3. the same image through `/tiles/default/{z}/{x}/{y}` (fetched, counted, passed on)

with p50/p99 latency at --connections clients, the ratios (3)/(2) and (3)/(1), and a check that
the day's counter equals the images handed out. Timing never fails anything: this prints figures.
Needs wrk (Debian package).

  swift build -c release --product waymark
  python3 Benchmarks/maps/tile_proxy.py [--seconds 5] [--rounds 3] [--connections 32]
"""
import argparse, os, pathlib, re, shutil, socket, sqlite3, statistics, subprocess, sys, tempfile, time, urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A real map image's size: an OpenStreetMap tile at campus zoom is 10–30 KB.
TILE_BYTES = 20_000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def binary():
    for candidate in (os.environ.get("WAYMARK_BINARY"), ROOT / ".build/release/waymark", ROOT / ".build/debug/waymark"):
        if candidate and pathlib.Path(candidate).exists():
            return str(candidate)
    sys.exit("no waymark binary: swift build -c release --product waymark")


def wait_ready(base):
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/ready", timeout=2).read()
            return
        except Exception:
            time.sleep(0.1)
    sys.exit(f"{base} did not start")


def wrk(url, seconds, connections):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    lat = {p: float(v) * {"us": 0.001, "ms": 1, "s": 1000}[u] for p, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)}
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    total = re.search(r"(\d+) requests in", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50": lat.get("50"), "p99": lat.get("99"),
            "bad": int(bad.group(1)) if bad else 0, "requests": int(total.group(1))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=32)
    a = ap.parse_args()
    exe = binary()
    work = pathlib.Path(tempfile.mkdtemp(prefix="waymark-tiles-"))
    servers = []
    try:
        # The upstream: a web folder with one zoom-17 image over the demo campus.
        z, x, y = 17, 22584, 52430
        tile = work / "web" / "tiles" / str(z) / str(x) / f"{y}.png"
        tile.parent.mkdir(parents=True)
        tile.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(TILE_BYTES - 8))
        env = {**os.environ, "WAYMARK_LOG_LEVEL": "error"}
        up_port = free_port()
        servers.append(subprocess.Popen([exe, "serve", "--database", str(work / "up.sqlite"), "--port", str(up_port),
                                         "--web", str(work / "web")], env=env, stdout=subprocess.DEVNULL))
        upstream = f"http://127.0.0.1:{up_port}"
        port = free_port()
        counting_db = work / "counting.sqlite"
        servers.append(subprocess.Popen([exe, "serve", "--database", str(counting_db), "--port", str(port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**env, "WAYMARK_MAP_COUNT_USAGE": "1", "WAYMARK_TILE_URL": upstream + "/tiles/{z}/{x}/{y}.png",
                                             "WAYMARK_TILE_MAX_ZOOM": "19"}))
        base = f"http://127.0.0.1:{port}"
        wait_ready(upstream)
        wait_ready(base)
        targets = {"noop": base + "/health", "direct": f"{upstream}/tiles/{z}/{x}/{y}.png", "proxied": f"{base}/tiles/default/{z}/{x}/{y}"}
        for url in targets.values():
            with urllib.request.urlopen(url, timeout=10) as r:
                assert r.status == 200, url
        warm = {name: wrk(url, 2, a.connections) for name, url in targets.items()}  # warm-up
        warm_bad = {name: r["bad"] for name, r in warm.items()}
        results = {k: [] for k in targets}
        for _ in range(a.rounds):
            for name, url in targets.items():
                results[name].append(wrk(url, a.seconds, a.connections))
        # Every proxied image wrk saw answered, the check's one and the warm-up's.
        proxied_total = sum(r["requests"] for r in results["proxied"]) + warm["proxied"]["requests"] + 1
        load = os.getloadavg()
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            s.wait(timeout=30)
    counted = sqlite3.connect(counting_db).execute("SELECT COALESCE(SUM(requests), 0) FROM map_usage WHERE kind = 'tiles'").fetchone()[0]
    shutil.rmtree(work, ignore_errors=True)

    med = lambda name, key: statistics.median(r[key] for r in results[name])  # noqa: E731
    print(f"{a.rounds} rounds of {a.seconds} s, {a.connections} connections, one {TILE_BYTES // 1000} KB image; load average {load[0]:.1f}")
    labels = {"noop": "(1) no-op GET /health (counting server)", "direct": "(2) image straight from the upstream",
              "proxied": "(3) image through /tiles/ (counted)"}
    for name, label in labels.items():
        bad = sum(r["bad"] for r in results[name])
        print(f"{label:44} {med(name, 'rps'):>9,.0f} req/s   p50 {med(name, 'p50'):6.2f} ms   p99 {med(name, 'p99'):6.2f} ms"
              f"   [{', '.join('%.0f' % r['rps'] for r in results[name])}]{'   non-2xx: %d' % bad if bad else ''}")
    print(f"proxied / direct : {med('proxied', 'rps') / med('direct', 'rps'):.2f}")
    print(f"proxied / no-op  : {med('proxied', 'rps') / med('noop', 'rps'):.2f}")
    if any(warm_bad.values()):
        print("non-2xx during the warm-up: " + ", ".join(f"{k} {v}" for k, v in warm_bad.items() if v))
    # wrk stops with requests in flight: the server may have counted a few it never saw answered.
    print(f"counted images   : {counted:,} by the server; {proxied_total:,} answered to wrk ({counted - proxied_total:+,}, "
          f"at most {a.connections} in flight at each of the {a.rounds + 1} stops)")


if __name__ == "__main__":
    main()
