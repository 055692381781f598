#!/usr/bin/env python3
"""Waymark's day planner beside Google OR-Tools CP-SAT on the same generated days.

Both solve the day-planning problem as the comment of `DayPlanner`
(Sources/WaymarkCore/Planner/DayPlanner.swift) states it: each event
attended once or marked unreachable, attended fixed events in the order of (start, end, index),
flexible ones anywhere, one mode per trip, transit only inside its window, lunch at most once
(standing alone, or between a trip's arrival and its event), and the objective (unreachable
events, lateness minutes, missed lunch, travel cost) minimised lexicographically. CP-SAT solves
it in four stages, each level held at its proven optimum before the next; a day gets 60 s in
all, and a day not proven by then is reported with its status (and is checked only as far as
CP-SAT got: equal on the levels it proved, and no worse than the plan it found). Every day's
objective from Waymark must equal CP-SAT's; timing never fails anything.

  pip install -r Benchmarks/planner/requirements.txt
  swift build -c release --package-path Benchmarks/planner     # .build/release/planner-benchmark there
  python3 Benchmarks/planner/cpsat.py selftest [--count 300]      # the CP-SAT model against brute force
  python3 Benchmarks/planner/cpsat.py generate --out /tmp/days.json [--seed 1] [--count 8] [--crowded]
  python3 Benchmarks/planner/cpsat.py cpsat /tmp/days.json [--workers 2]
  python3 Benchmarks/planner/cpsat.py brute /tmp/small.json       # exhaustive, days of up to 8 events
  python3 Benchmarks/planner/cpsat.py run --swift PATH/TO/planner-benchmark [--instances FILE] [--repeat 20]

selftest checks the CP-SAT model against an exhaustive search that follows the specification
step by step, on small random days full of edge cases. The generated days have 5 to 40 events,
one day of each size 5, 10, ... 40 in turn (--count 8: about 4 minutes of CP-SAT on two cores,
most of it the three largest days; --count 48 takes about half an hour). They fill about 85 % of
a day before travel, as a calendar does; --crowded keeps meetings at 30-45 minutes and errands
anywhere in town, so the largest days ask for 40 % more time than they have.

`run` without --swift prints CP-SAT's figures only. CP-SAT's time is the wall time of one
solve of a day, building the model included; Waymark's is what the benchmark binary prints
for --repeat runs of each day (for a group of days: the median of their p50s, the p99 of their
p99s). Exits non-zero only when an objective differs (or Waymark gives none for a day).
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

MODES = ["walk", "bike", "transit", "car", "rideShare"]
GROUPS = [("5–10", 0, 10), ("11–20", 11, 20), ("21–30", 21, 30), ("31–40", 31, 10**6)]
LEVELS = ["unreachable", "lateness", "missed lunch", "travel cost"]
TIME_LIMIT = 60.0
DEFAULT_DAYS = 8  # one of each size: the three largest take CP-SAT its 60 s each, about 4 minutes in all


# ---------------------------------------------------------------- reading a day

def load(path):
    with open(path) as f:
        return json.load(f)["instances"]


def save(path, instances):
    with open(path, "w") as f:
        json.dump({"instances": instances}, f, separators=(",", ":"))


def travel_table(day):
    """{(a, b): {mode: minutes}} from the day's list of [a, b, {mode: minutes}]."""
    return {(a, b): dict(modes) for a, b, modes in day["travel"]}


def transit_window(day):
    w = day.get("transit")
    return (w["from"], w["to"]) if w else (-10**9, 10**9)


def weight(day, mode):
    return day.get("weights", {}).get(mode, 1)


def fixed_order(events):
    """Indices of the fixed events in the order they are attended: (start, end, index)."""
    return sorted((i for i, e in enumerate(events) if e["kind"] == "fixed"),
                  key=lambda i: (events[i]["start"], events[i]["end"], i))


def trips(day, table, src, dst, modes):
    """(mode, minutes) for each allowed way from place src to place dst."""
    options = table.get((src, dst), {})
    return [(m, options[m]) for m in MODES if m in modes and m in options]


def horizon(day):
    """A time no plan passes: the latest given time plus every event's longest trip and length."""
    table = travel_table(day)
    anchors = [2880]
    if day.get("origin"):
        anchors.append(day["origin"]["ready"])
    if day.get("lunch"):
        anchors += [day["lunch"]["earliest"], day["lunch"]["latest"]]
    anchors += [v for v in transit_window(day) if abs(v) < 10**8]
    total = day["lunch"]["minutes"] if day.get("lunch") else 0
    for e in day["events"]:
        if e["kind"] == "fixed":
            anchors += [e["start"], e["end"]]
            total += e["end"] - e["start"]
        else:
            anchors += [e["earliest"], e["latest"]]
            total += e["minutes"]
        if e["location"] is not None:
            total += max([d for (a, b), ms in table.items() if b == e["location"] for d in ms.values()], default=0)
    return max(anchors) + total + 1


# ---------------------------------------------------------------- brute force

def brute(day):
    """The best objective by trying every plan the specification allows, step by step.

    A state is (next fixed event in order, flexible events decided, t, loc, lunch taken); from
    each state every next step is tried: skip the next fixed event or any flexible one, lunch
    standing alone, or attend the next fixed event or any flexible one by each possible trip,
    with or without lunch on arrival. Equal states are solved once.
    """
    events = day["events"]
    table = travel_table(day)
    lunch = day.get("lunch")
    t_from, t_to = transit_window(day)
    order = fixed_order(events)
    flexible = [i for i, e in enumerate(events) if e["kind"] == "flexible"]
    everything = (1 << len(flexible)) - 1
    memo = {}

    def eat(t):
        """When lunch ends if started at the first moment from t, or None if it cannot fit."""
        ls = max(t, lunch["earliest"])
        return ls + lunch["minutes"] if ls + lunch["minutes"] <= lunch["latest"] else None

    def arrivals(t, loc, e, lunched):
        """(ready, travel cost, lunched) for each way of getting to event e."""
        x = e["location"]
        if loc is None or x is None or loc == x:
            yield t, 0, lunched
            return
        for mode, d in trips(day, table, loc, x, e["modes"]):
            depart = max(t, t_from) if mode == "transit" else t
            if mode == "transit" and depart + d > t_to:
                continue
            arrival = depart + d
            yield arrival, weight(day, mode) * d, lunched
            if lunch and not lunched:
                end = eat(arrival)
                if end is not None:
                    yield end, weight(day, mode) * d, True

    def attend(e, ready):
        """(lateness, t afterwards)."""
        if e["kind"] == "fixed":
            begin = max(ready, e["start"])
            return begin - e["start"], max(e["end"], begin)
        begin = max(ready, e["earliest"])
        finish = begin + e["minutes"]
        return max(0, finish - e["latest"]), finish

    def plus(step, rest):
        return tuple(a + b for a, b in zip(step, rest))

    def best(k, mask, t, loc, lunched):
        key = (k, mask, t, loc, lunched)
        if key in memo:
            return memo[key]
        options = []
        if k == len(order) and mask == everything:
            options.append((0, 0, 1 if lunch and not lunched else 0, 0))
        if k < len(order):
            options.append(plus((1, 0, 0, 0), best(k + 1, mask, t, loc, lunched)))
        for b, i in enumerate(flexible):
            if not mask >> b & 1:
                options.append(plus((1, 0, 0, 0), best(k, mask | 1 << b, t, loc, lunched)))
        if lunch and not lunched:
            end = eat(t)
            if end is not None:
                options.append(best(k, mask, end, loc, True))
        nexts = [(i, k + 1, mask) for i in order[k:k + 1]]
        nexts += [(i, k, mask | 1 << b) for b, i in enumerate(flexible) if not mask >> b & 1]
        for i, k2, mask2 in nexts:
            e = events[i]
            loc2 = e["location"] if e["location"] is not None else loc
            for ready, cost, lunched2 in arrivals(t, loc, e, lunched):
                late, t2 = attend(e, ready)
                options.append(plus((0, late, 0, cost), best(k2, mask2, t2, loc2, lunched2)))
        memo[key] = min(options)
        return memo[key]

    start = day.get("origin")
    return best(0, 0, start["ready"] if start else 0, start["location"] if start else None, False)


# ---------------------------------------------------------------- CP-SAT

class DayModel:
    """The day as a CP-SAT model: a circuit from a depot (the origin) through the attended events,
    the place the person is at before each event, one trip into each event, lunch, and times.

    Times are lower bounds (ready >= arrival, begin >= ready, ...), not the specification's
    maxima: every rule is monotone (later never allows a trip, a lunch or an event that earlier
    did not, and never makes anything cheaper or less late), so a sequence with its trips and
    lunch is feasible here exactly when it is feasible at its earliest times, and its best
    objective here is the one at those times. The optimum is therefore the same. The constraints
    after "Implied" only cut off what no plan does; they make the proofs fast.
    """

    def __init__(self, day):
        from ortools.sat.python import cp_model
        self.cp_model = cp_model
        self.model = m = cp_model.CpModel()
        self.vars = []
        self.day = day
        self.events = events = day["events"]
        self.n = n = len(events)
        self.table = table = travel_table(day)
        self.window = t_from, t_to = transit_window(day)
        lunch = day.get("lunch")
        origin = day.get("origin")
        self.t0 = t0 = origin["ready"] if origin else 0
        self.H = H = horizon(day)
        self.NOWHERE = NOWHERE = day["locations"]
        start_place = origin["location"] if origin else NOWHERE

        # Where a person can be before an event: where the day starts, or any event's place that
        # can be reached from there (from nowhere, any place: the first event needs no trip).
        places = {start_place} | {e["location"] for e in events if e["location"] is not None}
        if origin:
            places, grown = {start_place}, True
            while grown:
                grown = False
                for j, e in enumerate(events):
                    if e["location"] is not None and e["location"] not in places and any(self.trips(p, j) for p in places):
                        places.add(e["location"])
                        grown = True
        places = sorted(places)

        self.present = present = [self.bool(f"present{j}") for j in range(n)]
        for j, e in enumerate(events):
            if e["location"] is not None and e["location"] not in places:
                m.add(present[j] == 0)  # no way there from anywhere the person can be
        node = lambda j: j + 1  # node 0 is the depot; event j is node j + 1

        # Times of event j: dep (leaves for it), arr, rdy (after a lunch on arrival), beg, end,
        # and out[node] (after a lunch standing alone after the node).
        dep = [self.int(t0, H, f"dep{j}") for j in range(n)]
        arr = [self.int(t0, H, f"arr{j}") for j in range(n)]
        rdy = [self.int(t0, H, f"rdy{j}") for j in range(n)]
        beg, end, late = [], [], []
        for j, e in enumerate(events):
            lo = e["start"] if e["kind"] == "fixed" else e["earliest"]
            beg.append(self.int(max(t0, lo), max(H, lo), f"beg{j}"))
            end.append(self.int(t0, H, f"end{j}"))
            late.append(self.int(0, H, f"late{j}"))
        out = [self.int(t0, H, "out_depot")] + [self.int(t0, H, f"out{j}") for j in range(n)]
        finish = [t0] + end  # when each node ends, before any lunch after it
        pos = [0] + [self.int(1, n, f"pos{j}") for j in range(n)]
        self.rdy, self.end, self.pos = rdy, end, pos

        # The circuit: a self-loop marks an event unreachable; an empty day loops the depot.
        order = fixed_order(events)
        rank = {i: r for r, i in enumerate(order)}
        empty = self.bool("empty")
        arcs = [(0, 0, empty)] + [(node(j), node(j), present[j].Not()) for j in range(n)]
        for j in range(n):
            m.add_implication(present[j], empty.Not())
        m.add(sum(present) >= 1).only_enforce_if(empty.Not())
        self.into = into = {j: [] for j in range(n)}
        for i in range(n + 1):
            for j in range(n + 1):
                if i == j or (i and j and i - 1 in rank and j - 1 in rank and rank[j - 1] < rank[i - 1]):
                    continue  # attended fixed events never go out of order
                a = self.bool(f"arc{i}_{j}")
                arcs.append((i, j, a))
                if j:
                    into[j - 1].append((i, a))
                    m.add(dep[j - 1] >= out[i]).only_enforce_if(a)
                    m.add(pos[j] == pos[i] + 1).only_enforce_if(a)
        m.add_circuit(arcs)

        # Attended fixed events in order (q carries the position of the last one attended).
        prev_pos, prev_end = 0, t0
        for r, i in enumerate(order):
            p = present[i]
            m.add(pos[node(i)] >= prev_pos + 1).only_enforce_if(p)
            q, qt = self.int(0, n, f"q{r}"), self.int(t0, H, f"qt{r}")
            m.add(q == pos[node(i)]).only_enforce_if(p)
            m.add(qt == end[i]).only_enforce_if(p)
            m.add(q == prev_pos).only_enforce_if(p.Not())
            m.add(qt == prev_end).only_enforce_if(p.Not())
            m.add(dep[i] >= prev_end).only_enforce_if(p)  # implied: it starts after the last one ended
            prev_pos, prev_end = q, qt

        # The place before each event (src), and the place after each node.
        src = [{p: self.bool(f"src{j}_{p}") for p in places} for j in range(n)]
        after = [{p: int(p == start_place) for p in places}]
        for j, e in enumerate(events):
            m.add(sum(src[j].values()) == present[j])
            after.append(src[j] if e["location"] is None else {p: int(p == e["location"]) for p in places})
        for j in range(n):
            for i, a in into[j]:
                for p in places:
                    if isinstance(after[i][p], int):
                        if after[i][p]:
                            m.add_implication(a, src[j][p])
                    else:
                        m.add(src[j][p] == after[i][p]).only_enforce_if(a)

        # One trip, by one mode, into each event whose place differs from where the person is.
        cost, travelled, self.cost_in = [], [], []
        for j, e in enumerate(events):
            x = e["location"]
            minutes, moved, cost_j = [], [], []
            for p in places:
                if x is None or p in (NOWHERE, x):
                    continue
                uses = []
                for mode, d in self.trips(p, j):
                    u = self.bool(f"use{j}_{p}_{mode}")
                    uses.append(u)
                    minutes.append(d * u)
                    cost_j.append(weight(day, mode) * d * u)
                    if mode == "transit":
                        m.add(dep[j] >= t_from).only_enforce_if(u)
                        m.add(arr[j] <= t_to).only_enforce_if(u)
                m.add(sum(uses) == src[j][p])
                moved.append(src[j][p])
            m.add(arr[j] == dep[j] + sum(minutes))
            travelled.append(moved)
            cost += cost_j
            self.cost_in.append(cost_j)

        # Lunch: at most once, standing alone after a node or between a trip's arrival and its event.
        taken = 0
        if lunch:
            ls = self.int(lunch["earliest"], max(H, lunch["earliest"]), "lunch")
            le = ls + lunch["minutes"]
            alone = [self.bool("lunch_after_depot")] + [self.bool(f"lunch_after{j}") for j in range(n)]
            on_arrival = [self.bool(f"lunch_arriving{j}") for j in range(n)]
            taken = sum(alone) + sum(on_arrival)
            m.add(taken <= 1)
            for lit in alone + on_arrival:
                m.add(le <= lunch["latest"]).only_enforce_if(lit)
            for i, lit in enumerate(alone):
                if i:
                    m.add_implication(lit, present[i - 1])
                m.add(ls >= finish[i]).only_enforce_if(lit)
                m.add(out[i] >= le).only_enforce_if(lit)
            for j, lit in enumerate(on_arrival):
                if not travelled[j]:
                    m.add(lit == 0)
                    continue
                m.add(sum(travelled[j]) >= 1).only_enforce_if(lit)
                m.add(ls >= arr[j]).only_enforce_if(lit)
                m.add(rdy[j] >= le).only_enforce_if(lit)
            self.lunch_order(ls, le, alone, on_arrival)
        for i in range(n + 1):
            m.add(out[i] >= finish[i])

        # Each event's times and lateness.
        for j, e in enumerate(events):
            m.add(rdy[j] >= arr[j])
            m.add(beg[j] >= rdy[j])
            if e["kind"] == "fixed":
                m.add(end[j] >= beg[j])
                m.add(end[j] >= e["end"])
                m.add(late[j] >= beg[j] - e["start"]).only_enforce_if(present[j])
            else:
                m.add(end[j] >= beg[j] + e["minutes"])
                m.add(late[j] >= beg[j] + e["minutes"] - e["latest"]).only_enforce_if(present[j])
            m.add(late[j] == 0).only_enforce_if(present[j].Not())

        # Implied: trips take at least the shortest way there, and cost at least the cheapest.
        self.shortest_ways()
        self.arc_bounds(origin)
        self.pair_order(origin, order)

        self.levels = [n - sum(present), sum(late), (1 - taken) if lunch else 0, sum(cost)]

    def bool(self, name):
        v = self.model.new_bool_var(name)
        self.vars.append(v)
        return v

    def int(self, lo, hi, name):
        v = self.model.new_int_var(lo, hi, name)
        self.vars.append(v)
        return v

    def trips(self, p, j):
        """(mode, minutes) from place p to event j by its modes, leaving out transit trips longer
        than the whole transit window."""
        e = self.events[j]
        t_from, t_to = self.window
        return [(mode, d) for mode, d in trips(self.day, self.table, p, e["location"], e["modes"])
                if mode != "transit" or d <= t_to - t_from]

    def shortest_ways(self):
        """sp[a][b]: the fewest minutes from place a to place b over trips into any events."""
        INF, L = math.inf, self.NOWHERE
        sp = [[0 if a == b else INF for b in range(L)] for a in range(L)]
        for j, e in enumerate(self.events):
            if e["location"] is not None:
                for p in range(L):
                    if p != e["location"]:
                        for _, d in self.trips(p, j):
                            sp[p][e["location"]] = min(sp[p][e["location"]], d)
        for k in range(L):
            for a in range(L):
                for b in range(L):
                    sp[a][b] = min(sp[a][b], sp[a][k] + sp[k][b])
        self.sp = sp

    def least_minutes(self, a, j, between):
        """The fewest minutes of travel between being at place a (None: unknown) and event j: the
        last trip is into j by its modes, or into another event at j's place among those that
        may come between (between)."""
        x = self.events[j]["location"]
        if a is None or a == self.NOWHERE or x is None or a == x:
            return 0
        entries = [j] + [k for k in between if k != j and self.events[k]["location"] == x]
        return min((self.sp[a][p] + d for e in entries for p in range(self.NOWHERE) if p != x
                    for _, d in self.trips(p, e)), default=math.inf)

    def ready_after(self, i, j, lits, between=None):
        """With lits true (i and j attended, i before j): j is ready no sooner than i ends plus the
        least travel between; never, when j cannot be reached from i's place."""
        if between is None:
            between = [k for k in range(self.n) if k not in (i, j)]
        b = self.least_minutes(self.events[i]["location"], j, between)
        if b == math.inf:
            self.model.add_bool_or([lit.Not() for lit in lits])
        else:
            self.model.add(self.rdy[j] >= self.end[i] + b).only_enforce_if(lits)

    def arc_bounds(self, origin):
        """From the origin, and along each arc from a place: the least time and cost into j."""
        m = self.model
        for j, e in enumerate(self.events):
            if origin:
                b = self.least_minutes(origin["location"], j, range(self.n))
                if b == math.inf:
                    m.add(self.present[j] == 0)
                else:
                    m.add(self.rdy[j] >= self.t0 + b)
            x, least_cost = e["location"], []
            for i, a in self.into[j]:
                xi = (origin["location"] if origin else None) if i == 0 else self.events[i - 1]["location"]
                if xi is None or x is None or xi == x:
                    continue
                options = self.trips(xi, j)
                if not options:
                    m.add(a == 0)
                    continue
                least_cost.append(min(weight(self.day, mode) * d for mode, d in options) * a)
                m.add(self.rdy[j] >= ([self.t0] + self.end)[i] + min(d for _, d in options)).only_enforce_if(a)
            if least_cost:
                m.add(sum(self.cost_in[j]) >= sum(least_cost))

    def pair_order(self, origin, order):
        """Which of two attended events comes first, with the least travel between them: given for
        two fixed events, a choice (tied to the positions) when either is flexible."""
        m, pos, present, n = self.model, self.pos, self.present, self.n
        flexible = [j for j in range(n) if self.events[j]["kind"] == "flexible"]
        for r, f in enumerate(order):
            for k, g in enumerate(order[r + 1:], r + 1):
                # Between two fixed events come only flexible ones and fixed ones between in order.
                self.ready_after(f, g, [present[f], present[g]], flexible + order[r + 1:k])
        for h in flexible:
            for g in range(n):
                if g == h or (g in flexible and g < h):
                    continue
                first = self.bool(f"before{h}_{g}")
                both = [present[h], present[g]]
                m.add(pos[h + 1] + 1 <= pos[g + 1]).only_enforce_if(both + [first])
                m.add(pos[g + 1] + 1 <= pos[h + 1]).only_enforce_if(both + [first.Not()])
                self.ready_after(h, g, both + [first])
                self.ready_after(g, h, both + [first.Not()])

    def lunch_order(self, ls, le, alone, on_arrival):
        """Implied: lunch comes before or after each attended event, and its times follow."""
        m, pos, n = self.model, self.pos, self.n
        at = self.int(-1, 2 * n + 1, "lunch_pos")  # twice the position, odd: between two nodes
        for i, lit in enumerate(alone):
            m.add(at == 2 * pos[i] + 1).only_enforce_if(lit)
        for j, lit in enumerate(on_arrival):
            m.add(at == 2 * pos[j + 1] - 1).only_enforce_if(lit)
        had = self.bool("lunch_taken")
        m.add(sum(alone) + sum(on_arrival) == had)
        for g in range(n):
            first = self.bool(f"lunch_before{g}")
            both = [had, self.present[g]]
            m.add(at <= 2 * pos[g + 1] - 1).only_enforce_if(both + [first])
            m.add(at >= 2 * pos[g + 1] + 1).only_enforce_if(both + [first.Not()])
            m.add(self.rdy[g] >= le).only_enforce_if(both + [first])
            m.add(ls >= self.end[g]).only_enforce_if(both + [first.Not()])

    def solve(self, workers=2, limit=TIME_LIMIT):
        """(objective, status, levels proven): each level minimised in turn, then held at its
        optimum, all within limit seconds."""
        cp_model = self.cp_model
        started = time.perf_counter()
        objective, found = [], None  # found: every level's value in the last plan found
        for level, expr in enumerate(self.levels):
            if isinstance(expr, int):
                objective.append(expr)
                continue
            self.model.minimize(expr)
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = workers
            solver.parameters.max_time_in_seconds = max(0.01, limit - (time.perf_counter() - started))
            code = solver.solve(self.model)
            if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                found = [e if isinstance(e, int) else solver.value(e) for e in self.levels]
            if code != cp_model.OPTIMAL:
                # The best plan found, if any: an upper bound from this level on, nothing proven.
                status = f"FEASIBLE ({LEVELS[level]} unproven)" if found else solver.status_name(code)
                return found, status, level
            value = solver.value(expr)
            objective.append(value)
            self.model.add(expr == value)
            self.model.clear_hints()
            for v in self.vars:
                self.model.add_hint(v, solver.value(v))
        return objective, "OPTIMAL", len(self.levels)


def solve_cpsat(day, workers=2, limit=TIME_LIMIT):
    """{objective, status, proven (levels), seconds (wall time, building the model included)}."""
    started = time.perf_counter()
    objective, status, proven = DayModel(day).solve(workers, limit)
    return {"objective": objective, "status": status, "proven": proven, "seconds": time.perf_counter() - started}


# ---------------------------------------------------------------- generated days

PLACE_RADIUS_KM = 8.0
ERRANDS = [  # (what, minutes, earliest, latest, online)
    ("gym", 60, 17 * 60, 21 * 60, False),
    ("groceries", 30, 9 * 60, 20 * 60, False),
    ("call-mum", 20, 12 * 60, 22 * 60, True),
    ("pharmacy", 15, 9 * 60, 19 * 60 + 30, False),
    ("post-office", 20, 8 * 60 + 30, 13 * 60 + 30, False),
    ("dry-cleaner", 15, 8 * 60, 19 * 60, False),
    ("coffee-with-giulia", 45, 15 * 60, 19 * 60, False),
    ("haircut", 45, 9 * 60 + 30, 19 * 60, False),
    ("bank", 20, 8 * 60 + 30, 13 * 60, False),
    ("library-returns", 20, 10 * 60, 18 * 60, False),
    ("parcel-pickup", 15, 9 * 60, 20 * 60, False),
    ("hardware-store", 30, 9 * 60, 19 * 60 + 30, False),
    ("school-pickup", 15, 16 * 60 + 30, 16 * 60 + 45, False),
    ("expense-report", 30, 8 * 60, 22 * 60, True),
    ("book-dentist", 10, 9 * 60, 18 * 60, True),
    ("run-in-the-park", 40, 6 * 60 + 30, 9 * 60, False),
]


def ground_km(a, b):
    return math.dist(a, b) * 1.3


def minutes_at(km, km_per_hour, extra):
    return max(1, math.ceil(round(km / km_per_hour * 60, 9)) + extra)


def trip_minutes(km, walk_km, bike_km, has_car, has_ride):
    """The modes a person would take over km on the ground, with their minutes."""
    modes = {}
    if km <= walk_km:
        modes["walk"] = minutes_at(km, 5, 0)
    if km <= bike_km:
        modes["bike"] = minutes_at(km, 15, 0)
    modes["transit"] = minutes_at(km, 20, 8)
    if has_car:
        modes["car"] = minutes_at(km, 25, 5)
    if has_ride:
        modes["rideShare"] = minutes_at(km, 25, 7)
    return modes


def point_in_city(rng, radius=PLACE_RADIUS_KM):
    r, a = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
    return (r * math.cos(a), r * math.sin(a))


def some_modes(rng):
    k = rng.choices([1, 2, 3, 4, 5], weights=[12, 30, 30, 20, 8])[0]
    return sorted(rng.sample(MODES, k), key=MODES.index)


def event_modes(rng):
    """The ways a person allows to an event of a real day: every way, mostly (the app's default);
    sometimes not by car (eco, or nowhere to park); now and then only one or two."""
    r = rng.random()
    if r < 0.7:
        return list(MODES)
    if r < 0.88:
        return [m for m in MODES if m not in ("car", "rideShare")]
    return some_modes(rng)


def quarter(minutes):
    """Minutes rounded up to the quarter hour."""
    return -(-minutes // 15) * 15


def generated_day(rng, name, size, crowded=False):
    """One person's day in a Milan-sized city: home (place 0), an office (place 1), other places
    within about 8 km of the centre. Fixed events mostly at the office or online, with the time to
    get between places usually left free, sometimes not (a rush, or a meeting booked over the end
    of the previous one); errands with the windows a person gives. A full day's meetings are as
    short as it takes for the day's events to fill about 85 % of it before travel, as a person
    with 40 things in a day books them; `crowded` keeps every meeting 30-45 minutes, so the
    largest days ask for 40 % more time than they have (a stress test, not a calendar)."""
    count = rng.randint(4, min(15, size // 2 + 4))
    places = [point_in_city(rng, 4.0), point_in_city(rng, 3.0)]
    if crowded:
        places += [point_in_city(rng) for _ in range(count - 2)]
    else:  # most errands are in the neighbourhood of home or the office; some across town
        for _ in range(count - 2):
            if rng.random() < 0.6:
                x, y = rng.choice(places[:2])
                dx, dy = point_in_city(rng, 1.5)
                places.append((x + dx, y + dy))
            else:
                places.append(point_in_city(rng))
    walk_km, bike_km = rng.choice([2.0, 3.0, 3.0, 4.0]), rng.choice([6.0, 8.0, 10.0, 10.0, 12.0])
    has_car, has_ride = rng.random() < 0.7, rng.random() < 0.8

    # Some days have an event only walkable, at a place far from everything else.
    stranded = size >= 10 and count >= 5 and rng.random() < 0.3
    if stranded:
        while True:
            angle = rng.uniform(0, 2 * math.pi)
            far = (7.8 * math.cos(angle), 7.8 * math.sin(angle))
            if min(ground_km(far, p) for p in places[:-1]) > walk_km + 1:
                places[-1] = far
                break
    elsewhere = list(range(2, count - 1 if stranded else count))
    minutes = {(a, b): trip_minutes(ground_km(places[a], places[b]), walk_km, bike_km, has_car, has_ride)
               for a in range(count) for b in range(count) if a != b}

    lunch = None
    if rng.random() < 0.85:
        lunch = {"earliest": rng.choice([660, 690, 690, 720]), "latest": rng.choice([840, 870, 870, 900]),
                 "minutes": rng.choice([30, 30, 30, 45])}

    flexible = round(size / 3)
    fixed = size - flexible
    busy = fixed > 12
    lengths = [30, 30, 30, 30, 45] if busy else [30, 45, 60, 60, 90, 120]
    online = 0.3 if busy else 0.15
    move = min(0.45, 5 / fixed)  # a full day is mostly at one desk
    events, cursor, here, lunch_break = [], rng.choice([480, 495, 510, 525, 540]), 0, False
    if busy:
        cursor -= 30
    errand_minutes = sum(e[1] for e in ERRANDS) / len(ERRANDS)
    room = 0.85 * (22 * 60 + 30 - cursor) - flexible * (errand_minutes + 20) - 5 * 20  # errands and trips
    shrink = 1.0 if crowded else min(1.0, max(0.3, room / (fixed * sum(lengths) / len(lengths))))

    def meeting(length):
        return length if shrink == 1.0 else max(10, round(length * shrink / 5) * 5)
    for k in range(fixed):
        r = rng.random()
        if r < online:
            where = None  # a video call
        elif r < online + move and elsewhere:
            where = rng.choice(elsewhere)
        else:
            where = 1 if rng.random() < 0.8 else here
        need = min(minutes[here, where].values()) if where is not None and where != here else 0
        r = rng.random()
        if events and r < 0.07:
            start = cursor - 15  # booked over the end of the previous one
        elif need and r < 0.2:
            start = cursor + max(0, quarter(need) - 15)  # a rush
        else:
            start = cursor + quarter(need) + (0 if busy else rng.choice([0, 0, 0, 15, 30, 60]))
        if lunch and not lunch_break and start >= 720 and rng.random() < 0.7:
            start, lunch_break = start + rng.choice([30, 45, 60]), True
        length = meeting(rng.choice(lengths))
        events.append({"kind": "fixed", "what": "", "start": start, "end": start + length, "location": where,
                       "modes": event_modes(rng)})
        cursor = start + length
        here = where if where is not None else here
    last = max(e["end"] for e in events)
    if last > 22 * 60 + 30 and len(events) > 1:  # more than fits before 22:30: the calendar is double-booked here and there
        first, span = events[0]["start"], events[-1]["start"] - events[0]["start"]
        squeeze = (22 * 60 + 30 - (last - events[-1]["start"]) - first) / span
        for e in events:
            length = e["end"] - e["start"]
            e["start"] = first + round((e["start"] - first) * squeeze / 15) * 15
            e["end"] = e["start"] + length
    if not busy and max(e["end"] for e in events) <= 19 * 60 + 30 and rng.random() < 0.3:
        start = rng.choice([1200, 1230])
        events.append({"kind": "fixed", "what": "", "start": start, "end": start + rng.choice([90, 120]),
                       "location": rng.choice(elsewhere or [0]), "modes": event_modes(rng)})  # dinner out
        events.pop(rng.randrange(len(events) - 1))

    chosen = rng.sample(ERRANDS, min(flexible, len(ERRANDS))) + [rng.choice(ERRANDS) for _ in range(flexible - len(ERRANDS))]
    for what, length, lo, hi, call in chosen:
        lo += rng.choice([-30, -15, 0, 0, 15])
        hi = max(hi + rng.choice([-15, 0, 0, 15, 30]), lo + length)
        where = None if call else rng.choice(elsewhere + [0] if elsewhere else [0])
        events.append({"kind": "flexible", "what": what, "earliest": lo, "latest": hi, "minutes": length,
                       "location": where, "modes": event_modes(rng)})
    candidates = [e for e in events if e["location"] not in (None, 0)]
    if stranded and candidates:
        rng.choice(candidates).update(location=count - 1, modes=["walk"])
    events.sort(key=lambda e: e.get("start", e.get("earliest")))
    for i, e in enumerate(events):
        e["id"] = f"e{i}" + (f"-{e['what']}" if e["what"] else "")
    order = ["id", "kind", "start", "end", "earliest", "latest", "minutes", "location", "modes"]
    events = [{k: e[k] for k in order if k in e} for e in events]

    eco = rng.random() < 0.35
    transit = rng.choices([(360, 1380), (420, 1260), (480, 1140), (540, 1080)], weights=[70, 15, 10, 5])[0]
    origin = None
    if stranded or rng.random() < 0.7:
        origin = {"location": 0, "ready": rng.randint(420, 510)}
    return {"name": name, "lunch": lunch, "origin": origin, "transit": {"from": transit[0], "to": transit[1]},
            "weights": {"walk": 1, "bike": 1, "transit": 1, "car": 2 if eco else 1, "rideShare": 2 if eco else 1},
            "locations": count, "travel": [[a, b, ms] for (a, b), ms in minutes.items()], "events": events}


def generated_days(seed, count, crowded=False):
    rng = random.Random(seed)
    sizes = list(range(5, 41, 5))
    return [generated_day(rng, f"d{k}-n{sizes[k % len(sizes)]}", sizes[k % len(sizes)], crowded) for k in range(count)]


def small_day(rng, name):
    """A small day with everything drawn at random, edge cases on purpose: places with no way
    between them, calls with no place, fixed events that overlap or tie, a transit window that
    shuts trips out, a lunch that cannot fit, an event nobody can get to."""
    n = rng.randint(3, 8)
    count = rng.randint(1, 5)
    travel = []
    for a in range(count):
        for b in range(count):
            if a != b and rng.random() < 0.85:
                options = {mode: rng.randint(1, 60) for mode in MODES if rng.random() < 0.6}
                if options:
                    travel.append([a, b, options])
    events = []
    for i in range(n):
        location = None if rng.random() < 0.2 else rng.randrange(count)
        modes = [] if rng.random() < 0.03 else some_modes(rng)
        if rng.random() < 0.55:
            start = rng.randrange(480, 780, rng.choice([5, 15, 30]))
            if events and rng.random() < 0.15 and events[-1]["kind"] == "fixed":
                start = events[-1]["start"]  # a tie, broken by end and then index
            events.append({"id": f"e{i}", "kind": "fixed", "start": start, "end": start + rng.randint(10, 90),
                           "location": location, "modes": modes})
        else:
            minutes = rng.randint(5, 80)
            lo = rng.randrange(420, 900, 5)
            hi = lo + minutes + rng.choice([0, 0, 10, 60, 200, 600])
            events.append({"id": f"e{i}", "kind": "flexible", "earliest": lo, "latest": hi, "minutes": minutes,
                           "location": location, "modes": modes})
    lunch = None
    if rng.random() < 0.8:
        lo = rng.randrange(600, 780, 10)
        lunch = {"earliest": lo, "latest": lo + rng.choice([10, 30, 45, 60, 120, 240]), "minutes": rng.choice([20, 30, 45])}
    origin = None if rng.random() < 0.3 else {"location": rng.randrange(count), "ready": rng.randrange(360, 600)}
    lo = rng.choice([0, 360, 480, 540, 600, 660])
    transit = {"from": lo, "to": lo + rng.choice([30, 120, 300, 1440])}
    weights = {mode: rng.randint(1, 3) for mode in MODES}
    return {"name": name, "lunch": lunch, "origin": origin, "transit": transit, "weights": weights,
            "locations": count, "travel": travel, "events": events}


# ---------------------------------------------------------------- reporting

def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, round((len(s) - 1) * p))]


def millis(ms):
    return f"{ms:,.3f}" if ms < 10 else f"{ms:,.1f}"


def in_group(day, lo, hi):
    return lo <= len(day["events"]) <= hi


def solve_all(days, workers, limit):
    """CP-SAT on each day, one line each: {name: solve_cpsat's answer}."""
    results = {}
    for day in days:
        r = results[day["name"]] = solve_cpsat(day, workers, limit)
        shown = str(tuple(r["objective"])) if r["objective"] else "-"
        print(f"{day['name']:<10} {len(day['events']):>3} events  {shown:<24} {r['status']:<32} {r['seconds']:8.3f} s", flush=True)
    return results


def print_cpsat_by_size(days, results):
    print("\nCP-SAT by day size (wall time of one solve, building the model included):")
    print(f"{'events':<8}{'days':>6}{'p50 ms':>12}{'p99 ms':>12}{'max ms':>12}{'unproven':>10}")
    for label, lo, hi in GROUPS:
        names = [d["name"] for d in days if in_group(d, lo, hi)]
        if names:
            times = [results[n]["seconds"] * 1000 for n in names]
            unproven = sum(1 for n in names if results[n]["status"] != "OPTIMAL")
            print(f"{label:<8}{len(names):>6}{percentile(times, 0.5):>12.1f}{percentile(times, 0.99):>12.1f}"
                  f"{max(times):>12.1f}{unproven:>10}")


def difference(name, ours, cp):
    """Why Waymark's answer for a day disagrees with CP-SAT's, or None. Where CP-SAT ran out of
    time, Waymark must equal it on the levels it proved and be no worse than the plan it found."""
    if ours is None:
        return f"{name}: no answer from Waymark (CP-SAT {tuple(cp['objective'] or [])})"
    mine, theirs, proven = tuple(ours["objective"]), tuple(cp["objective"] or []), cp["proven"]
    if cp["status"] == "OPTIMAL":
        return None if mine == theirs else f"{name}: Waymark {mine}, CP-SAT {theirs} (proven optimal)"
    if mine[:proven] != theirs[:proven]:
        return f"{name}: Waymark {mine}, CP-SAT {theirs} (optimal in {', '.join(LEVELS[:proven])})"
    if theirs and mine > theirs:
        return f"{name}: Waymark {mine} is worse than a plan CP-SAT found, {theirs}; CP-SAT: {cp['status']}"
    return None


# ---------------------------------------------------------------- commands

def cmd_generate(args):
    days = generated_days(args.seed, args.count, args.crowded)
    save(args.out, days)
    sizes = sorted({len(d["events"]) for d in days})
    print(f"{len(days)} days of {sizes[0]}–{sizes[-1]} events written to {args.out}")


def cmd_brute(args):
    for day in load(args.file):
        if len(day["events"]) > 8:
            print(f"{day['name']:<10} {len(day['events']):>3} events  skipped (brute force only up to 8)")
            continue
        started = time.perf_counter()
        objective = brute(day)
        print(f"{day['name']:<10} {len(day['events']):>3} events  {str(objective):<24} {time.perf_counter() - started:8.3f} s")


def cmd_selftest(args):
    rng = random.Random(args.seed)
    agreed = 0
    seen = {"unreachable": 0, "late": 0, "missed lunch": 0}
    for k in range(args.count):
        day = small_day(rng, f"s{k}")
        expected = brute(day)
        cp = solve_cpsat(day, args.workers)
        if cp["status"] == "OPTIMAL" and tuple(cp["objective"]) == expected:
            agreed += 1
        else:
            print(f"{day['name']}: brute force {expected}, CP-SAT {cp['objective']} ({cp['status']})")
            print(json.dumps(day))
        for key, value in zip(seen, expected):
            seen[key] += value > 0
    print(f"selftest: {agreed} of {args.count} days agreed with brute force "
          f"(days with unreachable events {seen['unreachable']}, with lateness {seen['late']}, "
          f"with missed lunch {seen['missed lunch']})")
    return 0 if agreed == args.count else 1


def cmd_cpsat(args):
    days = load(args.file)
    print_cpsat_by_size(days, solve_all(days, args.workers, args.limit))


def run_waymark(binary, path, repeat):
    """{name: JSON line} from the Swift benchmark binary."""
    done = subprocess.run([binary, path, "--repeat", str(repeat)], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{binary} exited with {done.returncode}:\n{done.stderr.strip()}", file=sys.stderr)
    answers = {}
    for line in done.stdout.splitlines():
        if line.strip().startswith("{"):
            row = json.loads(line)
            answers[row["name"]] = row
    return answers


def cmd_run(args):
    if args.instances:
        path, days = args.instances, load(args.instances)
    else:
        days = generated_days(args.seed, args.count, args.crowded)
        fd, path = tempfile.mkstemp(prefix="waymark-days-", suffix=".json")
        os.close(fd)
        save(path, days)
        print(f"{len(days)} generated days (seed {args.seed}) in {path}")
    results = solve_all(days, args.workers, args.limit)
    if not args.swift:
        print_cpsat_by_size(days, results)
        return 0

    ours = run_waymark(args.swift, path, args.repeat)
    differ = [d for d in (difference(day["name"], ours.get(day["name"]), results[day["name"]]) for day in days) if d]
    unproven = [d["name"] for d in days if results[d["name"]]["status"] != "OPTIMAL"]
    ms = lambda name: results[name]["seconds"] * 1000

    print(f"\nWaymark beside CP-SAT (Waymark: {args.repeat} runs of each day, the median of the days' p50s and "
          f"the p99 of their p99s; CP-SAT: one solve of each day):")
    print(f"{'events':<8}{'days':>6}{'CP-SAT p50':>13}{'CP-SAT p99':>13}{'Waymark p50':>14}{'Waymark p99':>14}{'p99 ratio':>11}")
    for label, lo, hi in GROUPS:
        names = [d["name"] for d in days if in_group(d, lo, hi) and d["name"] in ours]
        if names:
            c50, c99 = percentile([ms(n) for n in names], 0.5), percentile([ms(n) for n in names], 0.99)
            w50 = percentile([ours[n]["p50Micros"] / 1000 for n in names], 0.5)
            w99 = percentile([ours[n]["p99Micros"] / 1000 for n in names], 0.99)
            ratio = f"{c99 / w99:,.0f}×" if w99 > 0 else "-"
            print(f"{label:<8}{len(names):>6}{millis(c50):>10} ms{millis(c99):>10} ms{millis(w50):>11} ms{millis(w99):>11} ms{ratio:>11}")
    biggest = max(len(d["events"]) for d in days)
    names = [d["name"] for d in days if len(d["events"]) == biggest and d["name"] in ours]
    if names:
        c99 = percentile([ms(n) for n in names], 0.99)
        w99 = percentile([ours[n]["p99Micros"] / 1000 for n in names], 0.99)
        stopped = sum(1 for n in names if n in unproven)
        note = f" (CP-SAT stopped at {args.limit:.0f} s, unproven, on {stopped} of them)" if stopped else ""
        faster = f"{c99 / w99:,.0f} times faster" if w99 > 0 else "faster than its clock shows"
        print(f"{biggest}-event days, {len(names)}: p99 CP-SAT {millis(c99)} ms, Waymark {millis(w99)} ms: Waymark {faster}{note}")
    if unproven:
        print(f"CP-SAT proved no optimum within {args.limit:.0f} s on {len(unproven)} of {len(days)} days: "
              f"{', '.join(unproven)}; those are checked as far as it got")
    if differ:
        print(f"\nOBJECTIVES DIFFER on {len(differ)} of {len(days)} days:")
        for line in differ:
            print(f"  {line}")
        return 1
    print(f"\nSame objectives on all {len(days)} days.")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("generate", help="write generated days to a file")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=DEFAULT_DAYS)
    p.add_argument("--crowded", action="store_true", help="meetings kept 30-45 minutes: the largest days over-full")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("brute", help="the exhaustive reference on each day of a file (up to 8 events)")
    p.add_argument("file")
    p.set_defaults(func=cmd_brute)

    p = sub.add_parser("selftest", help="CP-SAT against brute force on small random days")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    p.set_defaults(func=cmd_selftest)

    p = sub.add_parser("cpsat", help="CP-SAT on each day of a file")
    p.add_argument("file")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--limit", type=float, default=TIME_LIMIT, help="seconds for one day")
    p.set_defaults(func=cmd_cpsat)

    p = sub.add_parser("run", help="CP-SAT and Waymark on the same days, objectives compared")
    p.add_argument("--swift", help="the planner-benchmark binary; without it, CP-SAT only")
    p.add_argument("--instances", help="a file of days; without it, generated with --seed and --count")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=DEFAULT_DAYS)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--limit", type=float, default=TIME_LIMIT, help="seconds for one day")
    p.add_argument("--crowded", action="store_true", help="meetings kept 30-45 minutes: the largest days over-full")
    p.set_defaults(func=cmd_run)

    args = ap.parse_args()
    return args.func(args) or 0


if __name__ == "__main__":
    sys.exit(main())
