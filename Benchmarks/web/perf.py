#!/usr/bin/env python3
"""Web app performance (PRK-18, seed F10/F11/F13) in headless Chromium. Prints figures; never
fails on timing.

  time to a usable map   cold open over a throttled 5 Mbit/s, 40 ms link, until the map with
                         its lot pins is drawn (the app's `waymark-usable` performance mark)
  bytes on open          everything transferred for that open (compressed, as on the wire)
  frames per second      panning and rotating continuously over the densest structure (NPS) at
                         spot zoom with all its spots in view, at 1× and 4× CPU slowdown

Usage:
  python3 Benchmarks/web/perf.py                         # starts WAYMARK_BINARY (or .build/…/waymark) with --demo
  python3 Benchmarks/web/perf.py --url http://127.0.0.1:8080   # against a running server with the demo site
  python3 Benchmarks/web/perf.py --runs 5 --json out.json

Needs: chromium, chromium-driver (Debian) and `pip install selenium`.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPO = pathlib.Path(__file__).resolve().parents[2]
DOWN_BYTES_PER_S = 5_000_000 / 8
UP_BYTES_PER_S = 2_000_000 / 8
LATENCY_MS = 40
TARGETS = {"usable_ms": 1500, "fps": 55, "open_kb": 300}
# Spot zoom at which the whole of NPS (160 × 100 m) stays on a 390 px wide screen at any bearing.
SPOT_ZOOM = 17.9


def find_binary() -> pathlib.Path:
    for candidate in [os.environ.get("WAYMARK_BINARY"), ".build/release/waymark", ".build/debug/waymark"]:
        if candidate:
            p = pathlib.Path(candidate)
            p = p if p.is_absolute() else REPO / p
            if p.exists():
                return p
    raise SystemExit("No server binary: build one (swift build -c release) or set WAYMARK_BINARY, or pass --url.")


def start_server() -> tuple[subprocess.Popen, str, pathlib.Path]:
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="waymark-perf-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([str(find_binary()), "serve", "--demo", "--host", "127.0.0.1", "--port", str(port),
                             "--web", str(REPO / "Web"), "--database", str(workdir / "perf.sqlite"), "--log-level", "warning"],
                            cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(url + "/ready", timeout=1):
                return proc, url, workdir
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def driver(width=390, height=844, dpr=3) -> webdriver.Chrome:
    o = webdriver.ChromeOptions()
    o.binary_location = os.environ.get("CHROME_BINARY", "/usr/bin/chromium")
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run", "--lang=en-US"]:
        o.add_argument(a)
    o.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": dpr, "touch": True}})
    o.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    d = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=o)
    d.set_script_timeout(60)
    return d


def wait_ready(d) -> None:
    d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const t = setInterval(() => { if (window.waymark) { clearInterval(t); window.waymark.ready.then(() => done(true)); } }, 10);")


def cold_open(url: str) -> dict:
    """One first visit over the throttled link, with an empty cache and no service worker."""
    d = driver()
    try:
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": LATENCY_MS,
            "downloadThroughput": DOWN_BYTES_PER_S, "uploadThroughput": UP_BYTES_PER_S})
        d.get_log("performance")  # drop what came before
        d.get(url + "/")
        wait_ready(d)
        usable = d.execute_script("return performance.getEntriesByName('waymark-usable')[0].startTime")
        nav = d.execute_script("const n = performance.getEntriesByType('navigation')[0];"
                               "return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}")
        paint = d.execute_script("const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
        time.sleep(2)  # let anything the open started (tile attempts, the live stream) settle
        sizes: dict[str, int] = {}
        streamed: dict[str, int] = {}
        urls: dict[str, str] = {}
        for entry in d.get_log("performance"):
            m = json.loads(entry["message"])["message"]
            p = m.get("params", {})
            if m["method"] == "Network.requestWillBeSent":
                urls[p["requestId"]] = p["request"]["url"]
            elif m["method"] == "Network.loadingFinished":
                sizes[p["requestId"]] = int(p["encodedDataLength"])
            elif m["method"] == "Network.dataReceived":
                streamed[p["requestId"]] = streamed.get(p["requestId"], 0) + int(p["encodedDataLength"])
        # A request that never finished (the live stream) counts what it received so far.
        for rid, n in streamed.items():
            sizes.setdefault(rid, n)
        by_kind: dict[str, int] = {}
        for rid, n in sizes.items():
            u = urls.get(rid, "")
            kind = ("api" if "/v1/" in u else "tiles" if "tile" in u else "icons" if "/icons/" in u
                    else "script" if u.endswith(".js") else "style" if u.endswith(".css") else "page")
            by_kind[kind] = by_kind.get(kind, 0) + n
        return {"usable_ms": usable, "fcp_ms": paint, "dcl_ms": nav["dcl"], "bytes": sum(sizes.values()),
                "requests": len([r for r in urls.values() if r.startswith("http")]), "by_kind": by_kind}
    finally:
        d.quit()


FPS_SCRIPT = """
const [lat, lon, zoom, seconds] = arguments;
const done = arguments[arguments.length - 1];
const w = window.waymark;
w.map.setView({center: {lat, lon}, zoom, bearing: 0});
const before = w.map.stats();
const spots = [];
const ratios = [];
const start = performance.now();
let last = start;
const gaps = [];
// As a gesture does: change the view once per animation frame and let the map draw it.
function step(t) {
  const k = (t - start) / 1000;
  // Pan in a 13 m circle while turning 90° per second: every frame changes the whole picture,
  // and the whole structure stays on screen at every angle.
  const r = 0.00012;
  w.map.setView({center: {lat: lat + r * Math.sin(k * 2), lon: lon + r * Math.cos(k * 2)}, bearing: (k * 90) % 360, zoom});
  spots.push(w.visibleSpotCount());
  ratios.push(w.map.stats().pixelRatio);
  gaps.push(t - last); last = t;
  if (t - start < seconds * 1000) requestAnimationFrame(step);
  else {
    const after = w.map.stats();
    const frames = after.frames - before.frames;
    done({frames, seconds: (t - start) / 1000, gaps, drawMs: (after.drawMs - before.drawMs) / frames,
          spotsMin: Math.min(...spots), spotsMax: Math.max(...spots), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios)});
  }
}
requestAnimationFrame((t) => { last = t; requestAnimationFrame(step); });
"""


def frame_rate(url: str, cpu_slowdown: int, all_levels: bool, seconds: float = 5) -> dict:
    d = driver()
    try:
        d.get(url + "/")
        wait_ready(d)
        lots = json.loads(urllib.request.urlopen(url + "/v1/sites").read())["sites"][0]
        site_lots = json.loads(urllib.request.urlopen(f"{url}/v1/sites/{lots['id']}/lots").read())["lots"]
        nps = next(l for l in site_lots if l["code"] == "NPS")
        lat, lon = nps["center"]["latitude"], nps["center"]["longitude"]
        d.execute_script("window.waymark.map.setView({center: {lat: arguments[0], lon: arguments[1]}, zoom: arguments[2]})", lat, lon, SPOT_ZOOM)
        d.execute_script("window.waymark.drawAllLevels(arguments[0])", all_levels)
        deadline = time.time() + 20
        while nps["id"] not in d.execute_script("return window.waymark.state.spotsLoaded") and time.time() < deadline:
            time.sleep(0.1)
        if cpu_slowdown > 1:
            d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
        r = d.execute_async_script(FPS_SCRIPT, lat, lon, SPOT_ZOOM, seconds)
        gaps = sorted(r["gaps"])
        return {"fps": r["frames"] / r["seconds"], "draw_ms": r["drawMs"], "p95_frame_ms": gaps[int(len(gaps) * 0.95)],
                "spots": f"{r['spotsMin']}–{r['spotsMax']}", "frames": r["frames"],
                "pixel_ratio": f"{r['ratioMin']:g}–{r['ratioMax']:g}"}
    finally:
        d.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running server with the demo site (default: start one)")
    ap.add_argument("--runs", type=int, default=3, help="cold opens to take the median of")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    proc = workdir = None
    url = args.url
    if not url:
        proc, url, workdir = start_server()
    try:
        chromium = subprocess.run([os.environ.get("CHROME_BINARY", "/usr/bin/chromium"), "--version"], capture_output=True, text=True).stdout.strip()
        print(f"{chromium}; 390×844 CSS px at 3× (iPhone-class); server {url}")
        print(f"network: {DOWN_BYTES_PER_S * 8 / 1e6:.0f} Mbit/s down, {UP_BYTES_PER_S * 8 / 1e6:.0f} Mbit/s up, {LATENCY_MS} ms latency; cold cache")
        load = os.getloadavg()[0]
        print(f"machine: {os.cpu_count()} CPUs, load average {load:.1f}" + ("  (busy: frame rates will read low)" if load > 1.5 else "") + "\n")
        opens = [cold_open(url) for _ in range(args.runs)]
        med = lambda key: statistics.median(o[key] for o in opens)
        usable, size = med("usable_ms"), med("bytes")
        print(f"time to usable map with pins : {usable:7.0f} ms  (target ≤ {TARGETS['usable_ms']})   "
              f"runs: {', '.join('%.0f' % o['usable_ms'] for o in opens)}")
        print(f"first contentful paint       : {med('fcp_ms'):7.0f} ms")
        print(f"bytes transferred on open    : {size / 1024:7.1f} KB  (target ≤ {TARGETS['open_kb']})   "
              f"{opens[0]['requests']} requests; " + ", ".join("%s %.1f KB" % (k, v / 1024) for k, v in sorted(opens[0]['by_kind'].items())))
        results = {"open": opens, "fps": {}}
        print()
        for label, slowdown, all_levels in [("NPS ground level (508 spots), 1× CPU", 1, False),
                                            ("NPS ground level (508 spots), 4× CPU slowdown", 4, False),
                                            ("NPS all 5 levels (2,540 spots), 1× CPU", 1, True),
                                            ("NPS all 5 levels (2,540 spots), 4× CPU slowdown", 4, True)]:
            f = frame_rate(url, slowdown, all_levels)
            results["fps"][label] = f
            print(f"pan+rotate {label:48s}: {f['fps']:5.1f} fps  (target ≥ {TARGETS['fps']}); "
                  f"draw {f['draw_ms']:.2f} ms/frame, p95 frame interval {f['p95_frame_ms']:.1f} ms, spots drawn {f['spots']}, "
                  f"pixel ratio while moving {f['pixel_ratio']}")
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps(results, indent=2))
    finally:
        if proc:
            proc.terminate()
            proc.wait()
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
