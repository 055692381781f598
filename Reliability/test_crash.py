"""Crash safety (PRK-2, issue 6): sensor events are ingested at full speed from several threads
while the server is killed with SIGKILL at random moments and started again on the same
database. An event counts as acknowledged when its request got HTTP 200 with outcome
`accepted`. After every kill (read straight from the database, the server down) and at the end:

- every acknowledged event is reflected: its spot's (observedAt, sequence) is at least the
  acknowledged one, and re-sending it is answered `duplicate` or `stale`, never `accepted`;
- no spot's position ever went backwards from one kill to the next;
- every lot's counters equal the count of its spots by state (the transaction was all or nothing);
- soft holds (PRK-9), taken and cancelled by guests all the while: every acknowledged hold is
  stored for its spot and person, every acknowledged cancel ended its hold, every hold that
  still claims its spot has the spot held, and every held spot has exactly one such hold;
- bookings and the wallet (PRK-12, PRK-13), used by two accounts all the while: every
  acknowledged top-up, booking and cancellation is stored, the ledger's entries sum to zero in
  every currency, every running balance equals the sum of its account's entries, and no wallet
  is below zero.

SQLite always; PostgreSQL too when WAYMARK_TEST_POSTGRES_URL is set (a fresh database per run).

  WAYMARK_CRASH_KILLS    kills per database (default 20)
  WAYMARK_CRASH_THREADS  ingesting threads (default 3)
"""
from __future__ import annotations

import datetime
import os
import random
import uuid
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
        rows = self._rows("SELECT sensor_id, observed_at, sequence, state FROM spots JOIN spot_states ON spot_id = id WHERE observed_at IS NOT NULL")
        return {r[0]: ((int(r[1]), int(r[2] or 0)), r[3]) for r in rows}

    def counter_mismatches(self) -> list[str]:
        counters = {r[0]: dict(zip("fohbcu", map(int, r[1:]))) for r in self._rows(
            "SELECT id, count_f, count_o, count_h, count_b, count_c, count_u FROM lots")}
        actual: dict[str, dict[str, int]] = {lot: dict.fromkeys("fohbcu", 0) for lot in counters}
        for lot, state, n in self._rows("SELECT lot_id, state, COUNT(*) FROM spots JOIN spot_states ON spot_id = id GROUP BY lot_id, state"):
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


class Holder:
    """Guests that take soft holds on random spots and cancel some of them, as fast as the
    server answers, remembering what was acknowledged (201 for a hold, 200 for a cancel)."""

    def __init__(self, server: Server, spots: list[str], guests: int):
        self.server = server
        self.spots = spots
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.held: dict[str, tuple[str, str]] = {}  # hold id -> (spot id, user id)
        self.cancelled: set[str] = set()
        self.attempts = self.refused = 0
        self.anomalies: list[str] = []
        self.guests = []
        for _ in range(guests):
            r = requests.post(f"{server.url}/v1/devices", json={}, timeout=30)
            r.raise_for_status()
            self.guests.append((r.json()["token"], r.json()["user"]["id"]))
        self.threads = [threading.Thread(target=self.run, args=(g, i), daemon=True) for i, g in enumerate(self.guests)]

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)

    def run(self, guest: tuple[str, str], seed: int):
        token, user = guest
        rng = random.Random(1000 + seed)
        session = requests.Session()
        headers = {"Authorization": f"Bearer {token}"}
        while not self.stop.is_set():
            spot = rng.choice(self.spots)
            try:
                r = session.post(f"{self.server.url}/v1/holds", json={"spotId": spot}, headers=headers, timeout=15)
                with self.lock:
                    self.attempts += 1
                    if r.status_code == 201:
                        self.held[r.json()["id"]] = (spot, user)
                    elif r.status_code == 409:
                        self.refused += 1
                    else:
                        self.anomalies.append(f"hold: HTTP {r.status_code}: {r.text[:200]}")
                if r.status_code == 201 and rng.random() < 0.5:
                    hold = r.json()["id"]
                    c = session.delete(f"{self.server.url}/v1/holds/{hold}", headers=headers, timeout=15)
                    with self.lock:
                        if c.status_code == 200:
                            self.cancelled.add(hold)
                        else:
                            self.anomalies.append(f"cancel: HTTP {c.status_code}: {c.text[:200]}")
            except requests.RequestException:
                session = requests.Session()
                time.sleep(0.1)


class Booker:
    """Accounts that top up, book random ranges of the bookable lots and cancel some bookings,
    remembering what was acknowledged."""

    def __init__(self, server: Server, lots: list[str], accounts: int):
        self.server = server
        self.lots = lots
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.top_ups: set[str] = set()        # ledger transaction ids
        self.booked: dict[str, str] = {}      # booking id -> user id
        self.cancelled: set[str] = set()
        self.attempts = 0
        self.anomalies: list[str] = []
        self.accounts = []
        for _ in range(accounts):
            r = requests.post(f"{server.url}/v1/accounts", timeout=30,
                              json={"username": "crash_" + uuid.uuid4().hex[:12], "password": "Crash#2026pass"})
            r.raise_for_status()
            self.accounts.append((r.json()["token"], r.json()["user"]["id"]))
        self.threads = [threading.Thread(target=self.run, args=(a, i), daemon=True) for i, a in enumerate(self.accounts)]

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)

    def run(self, account: tuple[str, str], seed: int):
        token, user = account
        rng = random.Random(2000 + seed)
        session = requests.Session()
        auth = {"Authorization": f"Bearer {token}"}
        today = datetime.datetime.now(datetime.timezone.utc).replace(hour=17, minute=0, second=0, microsecond=0)
        while not self.stop.is_set():
            try:
                if rng.random() < 0.2:
                    r = session.post(f"{self.server.url}/v1/wallet/top-ups", json={"amountMinor": 2000, "currency": "USD"},
                                     headers={**auth, "Idempotency-Key": uuid.uuid4().hex}, timeout=15)
                    with self.lock:
                        if r.status_code == 201:
                            self.top_ups.add(r.json()["line"]["transactionId"])
                        elif r.status_code >= 500 or r.status_code in (400, 401, 404):
                            self.anomalies.append(f"top-up: HTTP {r.status_code}: {r.text[:200]}")
                    continue
                start = today + datetime.timedelta(days=rng.randint(2, 40), minutes=30 * rng.randint(0, 8))
                body = {"lotId": rng.choice(self.lots), "start": start.isoformat().replace("+00:00", "Z"),
                        "end": (start + datetime.timedelta(minutes=60)).isoformat().replace("+00:00", "Z")}
                r = session.post(f"{self.server.url}/v1/bookings", json=body,
                                 headers={**auth, "Idempotency-Key": uuid.uuid4().hex}, timeout=15)
                with self.lock:
                    self.attempts += 1
                    if r.status_code == 201:
                        self.booked[r.json()["id"]] = user
                    elif r.status_code >= 500 or r.status_code in (401, 404):
                        self.anomalies.append(f"booking: HTTP {r.status_code}: {r.text[:200]}")
                if r.status_code == 201 and rng.random() < 0.3:
                    booking = r.json()["id"]
                    c = session.post(f"{self.server.url}/v1/bookings/{booking}/cancel", headers=auth, timeout=15)
                    with self.lock:
                        if c.status_code == 200:
                            self.cancelled.add(booking)
                        else:
                            self.anomalies.append(f"cancel: HTTP {c.status_code}: {c.text[:200]}")
            except requests.RequestException:
                session = requests.Session()
                time.sleep(0.1)


def check_money(booker: Booker, positions: "Positions") -> list[str]:
    with booker.lock:
        top_ups, booked, cancelled = set(booker.top_ups), dict(booker.booked), set(booker.cancelled)
    rows = positions._rows
    problems = []
    transactions = {r[0] for r in rows("SELECT id FROM ledger_transactions")}
    problems += [f"acknowledged top-up {t} is lost" for t in top_ups if t not in transactions]
    bookings = {r[0]: (r[1], r[2]) for r in rows("SELECT id, user_id, state FROM bookings")}
    for b, user in booked.items():
        if b not in bookings:
            problems.append(f"acknowledged booking {b} is lost")
        elif bookings[b][0] != user:
            problems.append(f"booking {b} belongs to {bookings[b][0]}, not {user}")
    problems += [f"cancelled booking {b} is {bookings[b][1]}" for b in cancelled if b in bookings and bookings[b][1] != "cancelled"]
    problems += [f"the ledger's {c} entries sum to {n}" for c, n in rows(
        "SELECT currency, SUM(amount_minor) FROM ledger_entries GROUP BY currency") if int(n) != 0]
    sums = {(a, c): int(n) for a, c, n in rows("SELECT account, currency, SUM(amount_minor) FROM ledger_entries GROUP BY account, currency")}
    for account, currency, kind, balance in rows("SELECT account, currency, kind, balance_minor FROM ledger_balances"):
        if int(balance) != sums.get((account, currency), 0):
            problems.append(f"{account} {currency}: running balance {balance}, entries sum {sums.get((account, currency), 0)}")
        if kind == "wallet" and int(balance) < 0:
            problems.append(f"{account} {currency} is below zero: {balance}")
    return problems


def check_holds(holder: Holder, positions: "Positions") -> list[str]:
    with holder.lock:
        held, cancelled = dict(holder.held), set(holder.cancelled)
    rows = {r[0]: r[1:] for r in positions._rows("SELECT id, spot_id, user_id, ended_at, asked_at FROM holds")}
    problems = []
    for hold, (spot, user) in held.items():
        if hold not in rows:
            problems.append(f"acknowledged hold {hold} on {spot} is lost")
        elif rows[hold][:2] != (spot, user):
            problems.append(f"hold {hold}: acknowledged for {(spot, user)} but stored {rows[hold][:2]}")
    problems += [f"cancelled hold {h} is not ended" for h in cancelled if h in rows and rows[h][2] == ""]
    claiming: dict[str, list[str]] = {}
    for hold, (spot, _, ended, asked) in rows.items():
        if ended == "" and asked == "":
            claiming.setdefault(spot, []).append(hold)
    states = dict(positions._rows("SELECT spot_id, state FROM spot_states WHERE state = 'h' OR spot_id IN (SELECT spot_id FROM holds WHERE ended_at IS NULL AND asked_at IS NULL)"))
    problems += [f"spot {spot} is claimed by {holds} but its state is {states.get(spot)!r}"
                 for spot, holds in claiming.items() if states.get(spot) != "h" or len(holds) != 1]
    problems += [f"spot {spot} is held with no hold claiming it" for spot, st in states.items() if st == "h" and spot not in claiming]
    return problems


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
    # Writes unthrottled: the test measures durability at full speed, not the write budget.
    server = Server(workdir, database=pg.url if pg else None, env={"WAYMARK_WRITE_RATE": "0"})
    try:
        server.key = server.gateway_key("crash")
        started = time.monotonic()
        server.start()
        sensors = server.sensors()
        positions = Positions(server, pg)
        ingester = Ingester(server, sensors, env_int("WAYMARK_CRASH_THREADS", 3))
        spot_ids = [s["id"] for lot in server.lots() for s in server.json(f"/v1/lots/{lot['id']}/spots")["spots"]]
        holder = Holder(server, spot_ids, guests=2)
        booker = Booker(server, [lot["id"] for lot in server.lots() if lot.get("booking")], accounts=2)
        ingester.start()
        holder.start()
        booker.start()
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
            problems += check_holds(holder, positions)
            problems += check_money(booker, positions)
            previous = spots
            t = time.monotonic()
            server.start()
            restart_seconds.append(time.monotonic() - t)
            assert not problems, "\n".join(problems[:30])
        time.sleep(1)
        ingester.join()
        holder.join()
        booker.join()
        acked = dict(ingester.acked)
        spots = positions.spots()
        problems += check_reflected(acked, spots)
        problems += positions.counter_mismatches()
        problems += check_holds(holder, positions)
        problems += check_money(booker, positions)

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
            "holds_attempted": holder.attempts, "holds_acknowledged": len(holder.held),
            "holds_refused_not_free": holder.refused, "cancels_acknowledged": len(holder.cancelled),
            "bookings_attempted": booker.attempts, "bookings_acknowledged": len(booker.booked),
            "booking_cancels_acknowledged": len(booker.cancelled), "top_ups_acknowledged": len(booker.top_ups),
            "seconds": round(time.monotonic() - started, 1), "anomalies": len(ingester.anomalies) + len(holder.anomalies)})
        assert not problems, "\n".join(problems[:30])
        assert not ingester.anomalies, "\n".join(ingester.anomalies[:30])
        assert not holder.anomalies, "\n".join(holder.anomalies[:30])
        assert holder.held, "no hold was acknowledged"
        assert not booker.anomalies, "\n".join(booker.anomalies[:30])
        assert booker.booked and booker.top_ups, "no booking or top-up was acknowledged"
        assert resent["accepted"] == 0 and resent["duplicate"] + resent["stale"] == len(acked), resent
        assert ingester.acknowledged > 0
    finally:
        server.stop()
        keep_log(server, f"crash-{database}-server.log")
        if pg:
            pg.drop()
