"""Races (PRK-9, issue 6): many rounds of guests rushing for one free spot over real HTTP, each
round with its own timing (a random start spread, a random number of guests, the same guest
sometimes asking twice, a cancel racing the next round's asks). Every round must have exactly
one winner: one hold id, one person, the spot shown held, every other guest refused with the
`spot-not-free` problem.

  WAYMARK_RACE_ROUNDS   rounds (default 40)
"""
from __future__ import annotations

import random
import threading
import time

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
