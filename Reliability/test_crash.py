"""Crash safety (PRK-2, issue 6): sensor events are ingested at full speed from several threads
while the server is killed with SIGKILL at random moments and started again on the same
database. An event counts as acknowledged when its request got HTTP 200 with outcome
`accepted`. After every kill (read straight from the database, the server down) and at the end:

- every acknowledged event is reflected: its spot's (observedAt, sequence) is at least the
  acknowledged one, and re-sending it is answered `duplicate` or `stale`, never `accepted`;
- no spot's position ever went backwards from one kill to the next;
- every lot's counters equal the count of its spots by state (the transaction was all or nothing).

SQLite always; PostgreSQL too when WAYMARK_TEST_POSTGRES_URL is set (a fresh database per run).

  WAYMARK_CRASH_KILLS    kills per database (default 20)
  WAYMARK_CRASH_THREADS  ingesting threads (default 3)
"""
from __future__ import annotations

import os
import random
import sqlite3
import threading
import time

import pytest
import requests

from harness import Postgres, Server, env_int, iso_millis, keep_log, report

DATABASES = ["sqlite", "postgres"]


class Positions:
    """The spots' ingest positions and the lots' counters, read from the database itself."""

    def __init__(self, server: Server, pg: Postgres | None):
        self.server = server
        self.pg = pg

    def _rows(self, sql: str) -> list[tuple]:
        if self.pg:
            out = self.pg.psql(sql)
            return [tuple(line.split("|")) for line in out.splitlines() if line]
        conn = sqlite3.connect(self.server.database, timeout=30)
        try:
            return [tuple("" if v is None else str(v) for v in row) for row in conn.execute(sql)]
        finally:
            conn.close()

    def spots(self) -> dict[str, tuple[tuple[int, int], str]]:
        rows = self._rows("SELECT sensor_id, observed_at, sequence, state FROM spots WHERE observed_at IS NOT NULL")
        return {r[0]: ((int(r[1]), int(r[2] or 0)), r[3]) for r in rows}

    def counter_mismatches(self) -> list[str]:
        counters = {r[0]: dict(zip("fohbcu", map(int, r[1:]))) for r in self._rows(
            "SELECT id, count_f, count_o, count_h, count_b, count_c, count_u FROM lots")}
        actual: dict[str, dict[str, int]] = {lot: dict.fromkeys("fohbcu", 0) for lot in counters}
        for lot, state, n in self._rows("SELECT lot_id, state, COUNT(*) FROM spots GROUP BY lot_id, state"):
            actual[lot][state] = int(n)
        return [f"lot {lot}: counters {counters[lot]} but spots {actual[lot]}" for lot in counters if counters[lot] != actual[lot]]


class Ingester:
    """Threads that each own a share of the sensors and report changes to them as fast as the
    server answers, remembering the newest acknowledged report per sensor."""

    def __init__(self, server: Server, sensors: list[str], threads: int):
        self.server = server
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acked: dict[str, tuple[int, int, bool]] = {}
        self.sequence = {s: 0 for s in sensors}
        self.last_ms = {s: 0 for s in sensors}
        self.shares = [sensors[i::threads] for i in range(threads)]
        self.sent = self.acknowledged = self.failed_requests = 0
        self.anomalies: list[str] = []
        self.threads = [threading.Thread(target=self.run, args=(share, i), daemon=True) for i, share in enumerate(self.shares)]

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)

    def run(self, share: list[str], seed: int):
        rng = random.Random(seed)
        session = requests.Session()
        headers = {"Authorization": f"Bearer {self.server.key}"}
        while not self.stop.is_set():
            batch = rng.sample(share, rng.randint(1, 200))
            now = int(time.time() * 1000)
            events = []
            for s in batch:
                self.sequence[s] += 1
                self.last_ms[s] = max(self.last_ms[s], now)
                events.append((s, self.last_ms[s], self.sequence[s], rng.random() < 0.5))
            body = {"events": [{"sensorId": s, "observedAt": iso_millis(ms), "sequence": seq, "occupied": occ}
                               for s, ms, seq, occ in events]}
            try:
                r = session.post(f"{self.server.url}/v1/gateway/events", json=body, headers=headers, timeout=15)
            except requests.RequestException:
                # Killed or restarting: these reports may or may not have been stored.
                with self.lock:
                    self.sent += len(events)
                    self.failed_requests += 1
                session = requests.Session()
                time.sleep(0.1)
                continue
            with self.lock:
                self.sent += len(events)
                if r.status_code != 200:
                    self.anomalies.append(f"HTTP {r.status_code}: {r.text[:200]}")
                    continue
                for (s, ms, seq, occ), outcome in zip(events, r.json()["outcomes"]):
                    if outcome == "accepted":
                        self.acked[s] = (ms, seq, occ)
                        self.acknowledged += 1
                    else:
                        # Each report is newer than every earlier one of its sensor.
                        self.anomalies.append(f"{s} ({ms}, {seq}) was {outcome}")


def check_reflected(acked: dict, spots: dict) -> list[str]:
    problems = []
    for s, (ms, seq, occ) in acked.items():
        found = spots.get(s)
        if found is None or found[0] < (ms, seq):
            problems.append(f"{s}: acknowledged ({ms}, {seq}) but stored {found}")
        elif found[0] == (ms, seq) and found[1] in "fo" and found[1] != ("o" if occ else "f"):
            problems.append(f"{s}: acknowledged occupied={occ} at ({ms}, {seq}) but the state is {found[1]!r}")
    return problems


@pytest.mark.parametrize("database", DATABASES)
def test_sigkill_during_ingest_loses_no_acknowledged_event(database, workdir):
    """PRK-2: acknowledged means durable, and nothing goes backwards, across 20 SIGKILLs."""
    pg = None
    if database == "postgres":
        url = os.environ.get("WAYMARK_TEST_POSTGRES_URL")
        if not url:
            pytest.skip("WAYMARK_TEST_POSTGRES_URL is not set")
        pg = Postgres(url, "waymark_crash").create()
    kills = env_int("WAYMARK_CRASH_KILLS", 20)
    server = Server(workdir, database=pg.url if pg else None)
    try:
        server.key = server.gateway_key("crash")
        started = time.monotonic()
        server.start()
        sensors = server.sensors()
        positions = Positions(server, pg)
        ingester = Ingester(server, sensors, env_int("WAYMARK_CRASH_THREADS", 3))
        ingester.start()
        rng = random.Random()
        previous: dict = {}
        problems: list[str] = []
        restart_seconds = []
        for _ in range(kills):
            time.sleep(rng.uniform(0.3, 2.0))
            server.kill()
            with ingester.lock:
                acked = dict(ingester.acked)
            spots = positions.spots()
            problems += check_reflected(acked, spots)
            problems += [f"{s} went back from {previous[s][0]} to {pos}" for s, (pos, _) in spots.items()
                         if s in previous and pos < previous[s][0]]
            problems += [f"{s} lost its position {previous[s][0]}" for s in previous if s not in spots]
            problems += positions.counter_mismatches()
            previous = spots
            t = time.monotonic()
            server.start()
            restart_seconds.append(time.monotonic() - t)
            assert not problems, "\n".join(problems[:30])
        time.sleep(1)
        ingester.join()
        acked = dict(ingester.acked)
        spots = positions.spots()
        problems += check_reflected(acked, spots)
        problems += positions.counter_mismatches()

        # Re-sending every acknowledged report changes nothing.
        resent = {"accepted": 0, "duplicate": 0, "stale": 0, "unknownSensor": 0, "invalid": 0}
        items = list(acked.items())
        for i in range(0, len(items), 2000):
            chunk = items[i:i + 2000]
            body = {"events": [{"sensorId": s, "observedAt": iso_millis(ms), "sequence": seq, "occupied": occ}
                               for s, (ms, seq, occ) in chunk]}
            r = requests.post(f"{server.url}/v1/gateway/events", json=body,
                              headers={"Authorization": f"Bearer {server.key}"}, timeout=60)
            assert r.status_code == 200, r.text
            for k in resent:
                resent[k] += r.json()[k]
        report(f"crash_{database}", {
            "kills": kills, "events_attempted": ingester.sent, "events_acknowledged": ingester.acknowledged,
            "sensors_verified": len(acked), "requests_cut_by_kills": ingester.failed_requests,
            "resent": resent, "restart_seconds_max": round(max(restart_seconds, default=0), 2),
            "seconds": round(time.monotonic() - started, 1), "anomalies": len(ingester.anomalies)})
        assert not problems, "\n".join(problems[:30])
        assert not ingester.anomalies, "\n".join(ingester.anomalies[:30])
        assert resent["accepted"] == 0 and resent["duplicate"] + resent["stale"] == len(acked), resent
        assert ingester.acknowledged > 0
    finally:
        server.stop()
        keep_log(server, f"crash-{database}-server.log")
        if pg:
            pg.drop()
