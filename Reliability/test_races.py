"""Races (PRK-9, PRK-12, PRK-13, PLN-1, issue 6), over real HTTP, each round with its own timing.

Holds: many rounds of guests rushing for one free spot (a random start spread, a random number
of guests, the same guest sometimes asking twice, a cancel racing the next round's asks).
Every round must have exactly one winner: one hold id, one person, the spot shown held, every
other guest refused with the `spot-not-free` problem.

Bookings: more accounts than a lot has bookable spaces book the same range at once, round after
round; exactly the lot's capacity is booked each round, the rest are refused `lot-full`, and at
the end every wallet equals its top-ups minus what its bookings paid, never below zero.

  WAYMARK_RACE_ROUNDS          hold rounds (default 40)
  WAYMARK_BOOKING_RACE_ROUNDS  booking rounds (default 8)
  WAYMARK_PLANNER_RACE_ROUNDS  first-calendar and last-calendar rounds (default 10)
"""
from __future__ import annotations

import datetime
import random
import threading
import time
import uuid
import zoneinfo

import requests

from harness import env_int, iso_millis, report


def guests(server, n: int) -> list[str]:
    out = []
    for _ in range(n):
        r = requests.post(f"{server.url}/v1/devices", json={}, timeout=30)
        r.raise_for_status()
        out.append(r.json()["token"])
    return out


def test_one_winner_per_spot_in_every_round(demo_server):
    """PRK-9: zero double grants across rounds of different timings."""
    server = demo_server
    rounds = env_int("WAYMARK_RACE_ROUNDS", 40)
    rng = random.Random()
    tokens = guests(server, 32)
    lots = server.lots()
    spots = [(lot["id"], s) for lot in lots for s in server.json(f"/v1/lots/{lot['id']}/spots")["spots"]]
    gateway = {"Authorization": f"Bearer {server.key}"}
    problems: list[str] = []
    contenders_total = 0
    started = time.monotonic()
    for round_no in range(rounds):
        lot_id, spot = rng.choice(spots)
        # The spot is reported empty just now, newer than anything its sensor said before.
        r = requests.post(f"{server.url}/v1/gateway/events", headers=gateway, timeout=30, json={"events": [{
            "sensorId": spot["sensorId"], "occupied": False, "observedAt": iso_millis(int(time.time() * 1000)),
            "sequence": 10**12 + round_no}]})
        assert r.status_code == 200, r.text
        if r.json()["outcomes"][0] != "accepted":
            continue  # held from an earlier round by someone, or a newer report: pick again next round
        state = requests.get(f"{server.url}/v1/lots/{lot_id}/spot-states", timeout=30).json()
        if state["states"][spot["ordinal"]] != "f":
            continue
        contenders = rng.sample(tokens, rng.randint(2, len(tokens)))
        if rng.random() < 0.3:
            contenders.append(contenders[0])  # a retried request from the same guest
        spread = rng.choice([0.0, 0.002, 0.02, 0.1])
        barrier = threading.Barrier(len(contenders))
        results: list[tuple[str, int, dict]] = []
        lock = threading.Lock()

        def ask(token: str):
            barrier.wait()
            time.sleep(rng.uniform(0, spread))
            resp = requests.post(f"{server.url}/v1/holds", json={"spotId": spot["id"]},
                                 headers={"Authorization": f"Bearer {token}"}, timeout=60)
            body = resp.json() if resp.headers.get("content-type", "").startswith(("application/json", "application/problem+json")) else {}
            with lock:
                results.append((token, resp.status_code, body))

        threads = [threading.Thread(target=ask, args=(t,)) for t in contenders]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        contenders_total += len(contenders)
        won = [(tok, body) for tok, status, body in results if status == 201]
        holds = {body["id"] for _, body in won}
        winners = {tok for tok, _ in won}
        refused = [body.get("type", "") for _, status, body in results if status == 409]
        others = [(status, body) for _, status, body in results if status not in (201, 409)]
        if len(holds) != 1 or len(winners) != 1:
            problems.append(f"round {round_no}: {len(holds)} holds for {len(winners)} guests")
        if others:
            problems.append(f"round {round_no}: unexpected answers {others[:3]}")
        if any(not t.endswith("/spot-not-free") for t in refused):
            problems.append(f"round {round_no}: refusals {set(refused)}")
        if len(refused) + len(won) != len(results):
            problems.append(f"round {round_no}: {len(results)} answers, {len(won)} won, {len(refused)} refused")
        state = requests.get(f"{server.url}/v1/lots/{lot_id}/spot-states", timeout=30).json()
        if state["states"][spot["ordinal"]] != "h":
            problems.append(f"round {round_no}: the spot shows {state['states'][spot['ordinal']]!r}, not held")
        if won and rng.random() < 0.5:
            token, body = won[0]
            gone = requests.delete(f"{server.url}/v1/holds/{body['id']}", headers={"Authorization": f"Bearer {token}"}, timeout=30)
            if gone.status_code != 200:
                problems.append(f"round {round_no}: cancel answered {gone.status_code}")
    report("races_holds", {"rounds": rounds, "contenders": contenders_total, "double_grants": sum("holds for" in p for p in problems),
                           "seconds": round(time.monotonic() - started, 1)})
    assert not problems, "\n".join(problems[:30])


def run_at_once(calls, spread: float, rng: random.Random) -> list:
    """Runs every call in its own thread, released together, each after a random part of `spread`."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def go(i, call):
        barrier.wait()
        time.sleep(rng.uniform(0, spread))
        results[i] = call()

    threads = [threading.Thread(target=go, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_bookings_never_oversell_a_lot_nor_overdraw_a_wallet(demo_server):
    """PRK-12, PRK-13: exactly the capacity is sold in every round; every wallet adds up."""
    server = demo_server
    rng = random.Random()
    rounds = env_int("WAYMARK_BOOKING_RACE_ROUNDS", 8)
    site = server.site()
    lots = [l for l in server.lots() if l.get("booking")]
    assert lots, "the demo site has bookable lots"
    lot = min(lots, key=lambda l: l["booking"]["bookableCapacity"])
    capacity = lot["booking"]["bookableCapacity"]
    contenders = capacity + rng.randint(5, 20)
    zone = zoneinfo.ZoneInfo(site["timeZone"])

    def utc(t: datetime.datetime) -> str:
        return t.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")

    # One range per round, on days to come, each quoted first: every account can pay for all
    # of them, so the only reason to refuse is capacity.
    ranges = []
    total = 0
    for offset in range(2, 60):
        if len(ranges) == rounds:
            break
        day = datetime.datetime.now(zone).date() + datetime.timedelta(days=offset)
        start = datetime.datetime.combine(day, datetime.time(10, 0), zone)
        start, end = utc(start), utc(start + datetime.timedelta(minutes=rng.choice([30, 60, 90])))
        q = requests.get(f"{server.url}/v1/lots/{lot['id']}/booking-quote", params={"start": start, "end": end}, timeout=30).json()
        if q["bookable"]:  # the lot may be closed on some days
            assert q["available"], q
            ranges.append((start, end))
            total += q["total"]["minorUnits"]
    assert len(ranges) == rounds, f"only {len(ranges)} bookable days"
    top_up = max(100, total)
    assert top_up <= 50000, f"{rounds} rounds cost {total}, more than one top-up"
    accounts = []
    for _ in range(contenders):
        name = "race_" + uuid.uuid4().hex[:12]
        r = requests.post(f"{server.url}/v1/accounts", json={"username": name, "password": "Race#2026pass"}, timeout=30)
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        t = requests.post(f"{server.url}/v1/wallet/top-ups", json={"amountMinor": top_up, "currency": "USD"},
                          headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}, timeout=30)
        assert t.status_code == 201, t.text
        accounts.append(token)
    problems: list[str] = []
    sold = refused = 0
    started = time.monotonic()
    for round_no, (start, end) in enumerate(ranges):
        body = {"lotId": lot["id"], "start": start, "end": end}

        def book(token):
            def call():
                r = requests.post(f"{server.url}/v1/bookings", json=body, timeout=120,
                                  headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex})
                return r.status_code, (r.json() if r.content else {})
            return call

        results = run_at_once([book(t) for t in accounts], rng.choice([0.0, 0.01, 0.1]), rng)
        won = [b for status, b in results if status == 201]
        lost = [b.get("type", "") for status, b in results if status == 409]
        other = [(status, b) for status, b in results if status not in (201, 409)]
        sold += len(won)
        refused += len(lost)
        if len(won) != capacity:
            problems.append(f"round {round_no}: {len(won)} booked of {capacity} spaces")
        if len({b["id"] for b in won}) != len(won):
            problems.append(f"round {round_no}: a booking id twice")
        if any(not t.endswith("/lot-full") for t in lost):
            problems.append(f"round {round_no}: refusals {set(lost)}")
        if other:
            problems.append(f"round {round_no}: unexpected answers {other[:3]}")
    # Every wallet: its top-up minus what its bookings paid, never below zero.
    for token in accounts:
        auth = {"Authorization": f"Bearer {token}"}
        wallet = requests.get(f"{server.url}/v1/wallet", headers=auth, timeout=30).json()
        balance = sum(m["minorUnits"] for m in wallet["balances"] if m["currency"] == "USD")
        bookings = requests.get(f"{server.url}/v1/bookings", headers=auth, timeout=30).json()["bookings"]
        paid = sum(b["paid"]["minorUnits"] for b in bookings if b["state"] != "cancelled")
        if balance < 0 or balance != top_up - paid:
            problems.append(f"wallet {balance} but topped up {top_up} and paid {paid}")
    report("races_bookings", {"rounds": rounds, "lot_capacity": capacity, "accounts": contenders, "booked": sold,
                              "refused_lot_full": refused, "seconds": round(time.monotonic() - started, 1)})
    assert not problems, "\n".join(problems[:30])


def test_a_person_always_keeps_exactly_one_first_calendar(demo_server):
    """PLN-1: a first visit from several tabs at once makes one "Personal" calendar, and deleting
    every calendar at once leaves exactly one: the rule is decided in the database."""
    server = demo_server
    rounds = env_int("WAYMARK_PLANNER_RACE_ROUNDS", 10)
    rng = random.Random()
    problems: list[str] = []
    for round_no in range(rounds):
        token = guests(server, 1)[0]
        auth = {"Authorization": f"Bearer {token}"}
        gate = threading.Barrier(6)
        seen: list[int] = []

        def first_visit():
            gate.wait()
            time.sleep(rng.random() * 0.005)
            r = requests.get(f"{server.url}/v1/me/planner/calendars", headers=auth, timeout=30)
            seen.append(len(r.json()["calendars"]) if r.status_code == 200 else -r.status_code)

        threads = [threading.Thread(target=first_visit) for _ in range(6)]
        for t in threads: t.start()
        for t in threads: t.join()
        if seen != [1] * 6:
            problems.append(f"round {round_no}: first visits saw {seen} calendars")
        for name in ("Work", "Sport", "Family"):
            requests.post(f"{server.url}/v1/me/planner/calendars", headers=auth, timeout=30,
                          json={"name": name, "colour": "#0b8043"}).raise_for_status()
        ids = [c["id"] for c in requests.get(f"{server.url}/v1/me/planner/calendars", headers=auth, timeout=30).json()["calendars"]]
        gate = threading.Barrier(len(ids))
        statuses: list[int] = []

        def delete(calendar_id):
            gate.wait()
            statuses.append(requests.delete(f"{server.url}/v1/me/planner/calendars/{calendar_id}", headers=auth, timeout=30).status_code)

        threads = [threading.Thread(target=delete, args=(i,)) for i in ids]
        for t in threads: t.start()
        for t in threads: t.join()
        left = requests.get(f"{server.url}/v1/me/planner/calendars", headers=auth, timeout=30).json()["calendars"]
        if len(left) != 1 or sorted(statuses) != [204, 204, 204, 409]:
            problems.append(f"round {round_no}: deleting all four answered {sorted(statuses)}, {len(left)} left")
    report("planner-races", {"rounds": rounds, "first_visits_per_round": 6, "deletions_per_round": 4, "problems": problems})
    assert not problems, problems
