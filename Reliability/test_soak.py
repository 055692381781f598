"""Soak (PRK-5, issue 6): a simulated campus day at high speed through the gateway API, with
hundreds of live-stream clients and occupancy pollers connected the whole time.

- the server's memory at the end is within 10 % of its memory after warm-up (VmRSS);
- no errors: every batch the emulator sends reaches the server (a request cut in transit is
  resent, as a gateway would, and counted), every poll is 200 or 304, no stream breaks or
  resets, and the server logs no error;
- every live client received exactly the events the server wrote to its event log, in order:
  no gap, no duplicate (ids compared with the live_events table).

  WAYMARK_SOAK_SECONDS  length of the day's run (default 30, the CI run; 600 for the full soak)
  WAYMARK_SOAK_CLIENTS  live-stream clients (default 200)
  WAYMARK_SOAK_POLLERS  occupancy and spot-state pollers (default 20)
  WAYMARK_SOAK_SPEED    simulated seconds per real second (default 120: the CI run plays
                        06:20-07:20, the morning's arrivals; 150 plays a whole day in 10 min)
"""
from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import threading
import time

import requests

from harness import Server, artifacts_dir, env_float, env_int, keep_log, report

FRAME = re.compile(rb"id: (\d+)\nevent: (\w+)\n")


class LiveClient:
    """One Server-Sent Events connection. Keeps where the ids jumped rather than every id, so
    hundreds of clients over a long run stay small: with ids strictly increasing, the jumps and
    the count say exactly which ids arrived."""

    def __init__(self):
        self.first: int | None = None
        self.last: int | None = None
        self.count = 0
        self.jumps: list[tuple[int, int]] = []
        self.backwards: list[tuple[int, int]] = []
        self.resets = 0
        self.connected = asyncio.Event()
        self.error: str | None = None

    def see(self, event_id: int, kind: bytes):
        if kind == b"reset":
            self.resets += 1
            return
        if self.last is not None:
            if event_id <= self.last:
                self.backwards.append((self.last, event_id))
                return
            if event_id != self.last + 1:
                self.jumps.append((self.last, event_id))
        else:
            self.first = event_id
        self.last = event_id
        self.count += 1

    async def run(self, port: int, path: str, stop: asyncio.Event):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        except OSError as error:
            self.error = f"connect: {error!r}"
            self.connected.set()
            return
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        buffer = b""
        try:
            while not stop.is_set():
                try:
                    chunk = await asyncio.wait_for(reader.read(65536), timeout=1)
                except asyncio.TimeoutError:
                    continue
                if not chunk:
                    if not stop.is_set():
                        self.error = "the stream ended"
                    break
                buffer += chunk
                if not self.connected.is_set() and b": connected" in buffer:
                    self.connected.set()
                cut = buffer.rfind(b"\n\n")
                if cut < 0:
                    continue
                complete, buffer = buffer[:cut + 2], buffer[cut + 2:]
                for m in FRAME.finditer(complete):
                    self.see(int(m.group(1)), m.group(2))
        except (OSError, asyncio.IncompleteReadError) as error:
            self.error = repr(error)
        finally:
            self.connected.set()
            writer.close()


class Pollers:
    """Threads reading occupancy and spot states as the web app does (with If-None-Match)."""

    def __init__(self, server: Server, n: int, paths: list[str]):
        self.server = server
        self.stop = threading.Event()
        self.statuses: dict[int, int] = {}
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(paths[i % len(paths)],), daemon=True) for i in range(n)]

    def run(self, path: str):
        session = requests.Session()
        etag = None
        while not self.stop.is_set():
            try:
                r = session.get(f"{self.server.url}{path}", headers={"If-None-Match": etag} if etag else {}, timeout=30)
                with self.lock:
                    self.statuses[r.status_code] = self.statuses.get(r.status_code, 0) + 1
                if r.status_code == 200:
                    etag = r.headers.get("ETag")
                elif r.status_code != 304:
                    with self.lock:
                        self.errors.append(f"{path}: HTTP {r.status_code}")
            except requests.RequestException as error:
                with self.lock:
                    self.errors.append(f"{path}: {error!r}")
            self.stop.wait(0.25)


def event_ids(database: str, after: int) -> list[int]:
    """The ids of the events after `after`: a row holds the events id … id + event_count - 1."""
    conn = sqlite3.connect(database, timeout=30)
    try:
        rows = conn.execute("SELECT id, event_count FROM live_events WHERE id + event_count - 1 > ? ORDER BY id", (after,))
        return [i for first, count in rows for i in range(max(first, after + 1), first + count)]
    finally:
        conn.close()


def check_client(c: LiveClient, ids: list[int], index: dict[int, int]) -> str | None:
    """None when the client saw exactly `ids`, in order."""
    if c.error:
        return c.error
    if c.resets or c.backwards:
        return f"{c.resets} resets, went back {c.backwards[:3]}"
    if not ids:
        return None if c.count == 0 else f"{c.count} events, none written"
    if c.first != ids[0] or c.last != ids[-1] or c.count != len(ids):
        return f"saw {c.count} events {c.first}…{c.last}, the log has {len(ids)} events {ids[0]}…{ids[-1]}"
    for before, after in c.jumps:
        if before not in index or after not in index or index[after] != index[before] + 1:
            return f"missed events between {before} and {after}"
    return None


def test_soak_campus_day_with_live_clients(workdir):
    """PRK-5: memory stays flat, nothing fails, and every live client misses nothing."""
    seconds = env_float("WAYMARK_SOAK_SECONDS", 30)
    n_clients = env_int("WAYMARK_SOAK_CLIENTS", 200)
    n_pollers = env_int("WAYMARK_SOAK_POLLERS", 20)
    speed = env_float("WAYMARK_SOAK_SPEED", 120)
    warmup = max(15.0, seconds * 0.2)
    server = Server(workdir)
    server.key = server.gateway_key("soak")
    server.start()
    try:
        site = server.site()["id"]
        lots = [l["id"] for l in server.lots()]
        paths = [f"/v1/sites/{site}/occupancy"] + [f"/v1/lots/{lot}/spot-states" for lot in lots]
        pollers = Pollers(server, n_pollers, paths)
        clients = [LiveClient() for _ in range(n_clients)]
        figures: dict = {}

        # The demo starts with the occupancy of the real time of day; bring the campus to the
        # simulated day's start first, so the run measures a day and not that catch-up burst
        # (whose size would depend on when the suite runs).
        settle = subprocess.run(
            [str(server.binary), "simulate", "--server", server.url, "--gateway-key", server.key,
             "--speed", "60", "--start", "06:00", "--interval", "0.25", "--duration", "20"],
            capture_output=True, text=True, timeout=120)
        assert settle.returncode == 0, settle.stdout[-2000:] + settle.stderr[-2000:]
        start_id = max(event_ids(server.database, 0), default=0)

        async def day():
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.run(server.port, f"/v1/sites/{site}/live", stop)) for c in clients]
            await asyncio.wait_for(asyncio.gather(*(c.connected.wait() for c in clients)), timeout=60)
            for t in pollers.threads:
                t.start()
            simulate = await asyncio.create_subprocess_exec(
                str(server.binary), "simulate", "--server", server.url, "--gateway-key", server.key,
                "--speed", str(speed), "--start", "06:20", "--interval", "0.25", "--duration", str(seconds),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            started = time.monotonic()
            # Memory every 10 s, so a failed run shows whether it climbed steadily (a leak) or
            # rose with the load and levelled off (buffers and caches filling).
            rss_series: list[tuple[float, float]] = []

            async def sample_rss():
                while True:
                    rss_series.append((round(time.monotonic() - started), round(server.rss_kib() / 1024, 1)))
                    await asyncio.sleep(10)

            sampler = asyncio.create_task(sample_rss())
            await asyncio.sleep(warmup)
            figures["rss_after_warmup_mib"] = round(server.rss_kib() / 1024, 1)
            out, _ = await simulate.communicate()
            sampler.cancel()
            figures["rss_series_s_mib"] = rss_series
            figures["simulate_exit"] = simulate.returncode
            text = out.decode(errors="replace")
            (artifacts_dir() / "soak-simulate.txt").write_text(text)
            figures["simulate_output"] = text.strip().splitlines()[-1:]
            figures["seconds"] = round(time.monotonic() - started, 1)
            # Let the streams drain: every client must reach the end of the log.
            final = max(event_ids(server.database, start_id), default=start_id)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any((c.last or start_id) < final and not c.error for c in clients):
                await asyncio.sleep(0.2)
            figures["rss_end_mib"] = round(server.rss_kib() / 1024, 1)
            pollers.stop.set()
            stop.set()
            await asyncio.gather(*tasks)

        asyncio.run(day())
        for t in pollers.threads:
            t.join(timeout=30)

        ids = event_ids(server.database, start_id)
        index = {event_id: i for i, event_id in enumerate(ids)}
        bad = [(i, why) for i, c in enumerate(clients) if (why := check_client(c, ids, index))]
        sent = re.search(r"Sent (\d+) events, (\d+) accepted, (\d+) failed requests, (\d+) retried; slowest request ([\d.]+) s",
                         " ".join(figures["simulate_output"]))
        log_errors = [line for line in server.log_text().splitlines() if re.search(r"\b(ERROR|CRITICAL)\b", line)]
        growth = figures["rss_end_mib"] / figures["rss_after_warmup_mib"] - 1
        figures.update({
            "live_clients": n_clients, "pollers": n_pollers, "speed": speed, "events_written": len(ids),
            "events_checked": sum(c.count for c in clients), "clients_with_problems": len(bad),
            "polls": dict(sorted(pollers.statuses.items())), "poll_errors": len(pollers.errors),
            "poll_error_samples": pollers.errors[:3],
            "sensor_events_sent": int(sent.group(1)) if sent else None,
            "simulate_failed_requests": int(sent.group(3)) if sent else None,
            "simulate_retried_requests": int(sent.group(4)) if sent else None,
            "simulate_slowest_request_s": float(sent.group(5)) if sent else None,
            "rss_growth_percent": round(growth * 100, 1), "server_log_errors": len(log_errors)})
        report("soak", figures)
        assert len(ids) > 0, "the simulation wrote no live events"
        assert not bad, f"{len(bad)} live clients did not see the event log: {bad[:5]}"
        assert figures["simulate_exit"] == 0 and sent and int(sent.group(3)) == 0, figures["simulate_output"]
        assert not pollers.errors, pollers.errors[:10]
        assert not log_errors, log_errors[:10]
        assert growth <= 0.10, f"RSS grew {growth:.1%} after warm-up ({figures})"
    finally:
        server.stop()
        keep_log(server, "soak-server.log")
