#!/usr/bin/env python3
"""A city-sized GTFS feed for the transit benchmark (PLN-5), the same for the same seed.

Lumera is a made-up round city of about 18 km across (centred in the Po plain, time zone
Europe/Rome). Its streets are a grid, 300 m apart; every station is a crossing of two streets
and is named after them. On a weekday (one service, Monday to Friday, all of 2026):

- buses run along every second street of the grid in both directions, calling at every crossing
  (slower in the centre, where the streets are busy); every 8 minutes at the peaks, 12 in the
  day, 15-20 early and late;
- trams run on six lines across the city, each through a point near the centre at its own
  angle, and on a ring about 4 km out, stopping every 500 m or so; every 6-15 minutes;
- four metro lines cross the city, stopping every kilometre or so; every 3 minutes at the
  peaks, 5 in the day, up to 10 early and late.

Every line stops at grid crossings, so a station is where lines meet: each line and direction
has a platform of its own a few metres from the crossing, and `transfers.txt` gives two minutes
to change platforms within a station (from the station to itself, which the GTFS reference
applies to each pair of its platforms). Service runs from 05:00; the last trips leave at 00:30
and arrive before 02:00 (times past 24:00). Vehicles of one line never overtake one another.
Seed 1 gives 62 bus lines, 7 tram lines and 4 metro lines: 9,019 stops (2,323 stations), 16,509
trips and 721,686 stop times.

    python3 Benchmarks/transit/citygen.py --out /tmp/lumera --seed 1

Writes agency.txt, stops.txt, routes.txt, trips.txt, stop_times.txt, calendar.txt and
transfers.txt into --out, and prints how many rows each has.
"""
import argparse
import math
import os
import random

CENTRE = (45.052, 9.693)          # latitude, longitude
EARTH_RADIUS = 6_371_008.8
SPACING = 300.0                   # metres between grid streets
HALF = 30                         # grid nodes -30 … 30 each way
CITY_RADIUS = 9_300.0             # the city is a disc of this radius
SERVICE = "WD"
TRANSFER_SECONDS = 120

# Headways in minutes by time of day: (start hour, bus, tram, metro).
BANDS = [
    (5.0, 20, 15, 10),
    (6.5, 8, 6, 3),
    (9.5, 12, 10, 5),
    (16.0, 8, 6, 3),
    (19.5, 15, 12, 6),
    (21.5, 20, 15, 10),
]
LAST_START = 24.5                 # no trip starts after 00:30


def headway(hour, mode):
    column = {"bus": 1, "tram": 2, "metro": 3}[mode]
    minutes = BANDS[0][column]
    for band in BANDS:
        if hour >= band[0]:
            minutes = band[column]
    return minutes * 60


def position(east, north):
    lat0 = math.radians(CENTRE[0])
    lat = CENTRE[0] + math.degrees(north / EARTH_RADIUS)
    lon = CENTRE[1] + math.degrees(east / (EARTH_RADIUS * math.cos(lat0)))
    return lat, lon


def street_names(rng, count, prefix):
    """Made-up but pronounceable surnames, one per street, never the same twice."""
    first = ["Bar", "Cal", "Dor", "Fal", "Gar", "Lan", "Mar", "Nar", "Pal", "Ros", "Sal", "Tor", "Val", "Ber",
             "Cor", "Fer", "Gal", "Mor", "Ser", "Ver", "Bel", "Cas", "Del", "Mon"]
    middle = ["a", "e", "i", "o", "an", "el", "in", "ol"]
    last = ["lli", "tti", "ni", "ri", "sco", "zzi", "na", "no", "dini", "mbri"]
    names, seen = [], set()
    while len(names) < count:
        word = first[int(rng.random() * len(first))] + middle[int(rng.random() * len(middle))] + last[int(rng.random() * len(last))]
        if word not in seen:
            seen.add(word)
            names.append(f"{prefix} {word}")
    return names


class City:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        rng = self.rng
        # Grid nodes inside the disc, each a little off the ideal grid.
        self.nodes = {}
        for r in range(-HALF, HALF + 1):
            for c in range(-HALF, HALF + 1):
                if math.hypot(r * SPACING, c * SPACING) <= CITY_RADIUS:
                    self.nodes[(r, c)] = (c * SPACING + (rng.random() - 0.5) * 50, r * SPACING + (rng.random() - 0.5) * 50)
        rows = street_names(rng, 2 * HALF + 1, "Via")
        cols = street_names(rng, 2 * HALF + 1, "Viale")
        self.row_name = {r: rows[r + HALF] for r in range(-HALF, HALF + 1)}
        self.col_name = {c: cols[c + HALF] for c in range(-HALF, HALF + 1)}
        self.station_platforms = {}   # node → [platform ids]
        self.platforms = []           # (id, name, lat, lon, station id, code)
        self.routes = []              # (route id, agency, short, long, type, colour)
        self.trips = []               # (route id, trip id, headsign, direction)
        self.stop_times = []          # lines of stop_times.txt

    def station_id(self, node):
        return f"ST_{node[0] + HALF:02d}_{node[1] + HALF:02d}"

    def station_name(self, node):
        return f"{self.row_name[node[0]]} / {self.col_name[node[1]]}"

    def snap(self, east, north):
        node = (round(north / SPACING), round(east / SPACING))
        return node if node in self.nodes else None

    def platform(self, node, line, direction, dx, dy):
        pid = f"{self.station_id(node)}_{line}_{direction}"
        taken = self.station_platforms.setdefault(node, [])
        code = chr(ord("A") + len(taken)) if len(taken) < 26 else f"Z{len(taken)}"
        taken.append(pid)
        east, north = self.nodes[node]
        lat, lon = position(east + dx, north + dy)
        self.platforms.append((pid, self.station_name(node), lat, lon, self.station_id(node), code))
        return pid

    def line(self, route_id, agency, short, long, route_type, colour, mode, nodes, hop):
        """A line both ways along `nodes`; `hop(a, b)` gives (run seconds, dwell seconds) for each hop."""
        self.routes.append((route_id, agency, short, long, route_type, colour))
        rng = self.rng
        for direction, path in (("0", nodes), ("1", list(reversed(nodes)))):
            # Platforms a few metres from the crossing, on the side the vehicle stops.
            side = 1 if direction == "0" else -1
            angle = rng.random() * 2 * math.pi
            platforms = []
            for node in path:
                if mode == "bus" and route_id.startswith("BE"):
                    platforms.append(self.platform(node, route_id, direction, 0, -12 * side))
                elif mode == "bus":
                    platforms.append(self.platform(node, route_id, direction, 12 * side, 0))
                else:
                    reach = 15 + rng.random() * 20
                    platforms.append(self.platform(node, route_id, direction, reach * math.cos(angle) * side, reach * math.sin(angle) * side))
            offsets = [(0, 0)]
            t = 0
            for a, b in zip(path, path[1:]):
                run, dwell = hop(a, b)
                t += run
                offsets.append((t, t + dwell))
                t += dwell
            offsets[-1] = (offsets[-1][0], offsets[-1][0])
            headsign = self.station_name(path[-1])
            start = 5 * 3600 + int(rng.random() * headway(5.0, mode))
            n = 0
            while start <= LAST_START * 3600:
                n += 1
                trip_id = f"{route_id}-{direction}-{n:03d}"
                self.trips.append((route_id, trip_id, headsign, direction))
                for seq, (pid, (arr, dep)) in enumerate(zip(platforms, offsets), 1):
                    self.stop_times.append(f"{trip_id},{clock(start + arr)},{clock(start + dep)},{pid},{seq}")
                start += headway(start / 3600, mode)

    def build(self):
        nodes = self.nodes
        rng = self.rng

        def distance(a, b):
            (x1, y1), (x2, y2) = nodes[a], nodes[b]
            return math.hypot(x1 - x2, y1 - y2)

        def bus_hop(a, b):
            # Slower in the centre: 4.0 m/s there, 6.5 m/s at the edge; 15 s at each stop.
            d = distance(a, b)
            out = math.hypot(*nodes[a]) / CITY_RADIUS
            return int(d / (4.0 + 2.5 * out)) + 15, 0

        def tram_hop(a, b):
            return int(distance(a, b) / 6.0), 20

        def metro_hop(a, b):
            d = distance(a, b)
            return int(d / 13.0) + 25, 30     # acceleration and braking

        number = 1
        for r in range(-HALF, HALF + 1, 2):
            path = [(r, c) for c in range(-HALF, HALF + 1) if (r, c) in nodes]
            if len(path) >= 6:
                self.line(f"BE{number}", "LUB", str(number), f"{self.row_name[r]} crosstown", 3, "1E6FB8", "bus", path, bus_hop)
                number += 1
        for c in range(-HALF, HALF + 1, 2):
            path = [(r, c) for r in range(-HALF, HALF + 1) if (r, c) in nodes]
            if len(path) >= 6:
                self.line(f"BN{number}", "LUB", str(number), f"{self.col_name[c]} crosstown", 3, "1E6FB8", "bus", path, bus_hop)
                number += 1

        def along(points, step):
            """Grid nodes along a polyline, one about every `step` metres, in order, none twice."""
            out = []
            for (x1, y1), (x2, y2) in zip(points, points[1:]):
                length = math.hypot(x2 - x1, y2 - y1)
                for k in range(int(length // step) + 1):
                    f = k * step / length
                    node = self.snap(x1 + (x2 - x1) * f, y1 + (y2 - y1) * f)
                    if node is not None and node not in out:
                        out.append(node)
            return out

        # Trams: six lines across the city, each through its own point near the centre.
        for k in range(6):
            angle = math.radians(12 + 30 * k + rng.random() * 10)
            cx, cy = (rng.random() - 0.5) * 3000, (rng.random() - 0.5) * 3000
            reach = CITY_RADIUS * 0.95
            ends = [(cx - reach * math.cos(angle), cy - reach * math.sin(angle)), (cx + reach * math.cos(angle), cy + reach * math.sin(angle))]
            path = along(ends, 500)
            self.line(f"T{k + 1}", "LUM", f"T{k + 1}", f"Tram {k + 1}", 0, "E37222", "tram", path, tram_hop)
        ring = [(4200 * math.cos(2 * math.pi * i / 52), 4200 * math.sin(2 * math.pi * i / 52)) for i in range(52)]
        self.line("T7", "LUM", "T7", "Tram ring", 0, "E37222", "tram", along(ring + [ring[0]], 500), tram_hop)

        # Metro: four lines, each a little bent, stopping about every kilometre.
        metro = [
            [(-8800, -700), (-2000, 300), (2500, -400), (8800, 800)],
            [(-900, -8800), (400, -2500), (-300, 2600), (700, 8800)],
            [(-6300, -6000), (-1200, -800), (6200, 6100)],
            [(-6400, 5800), (-1500, 1400), (1800, -1700), (6600, -5600)],
        ]
        colours = ["E3000F", "2A9D3C", "F6B400", "6B2C91"]
        for k, points in enumerate(metro):
            self.line(f"M{k + 1}", "LUM", f"M{k + 1}", f"Metro {k + 1}", 1, colours[k], "metro", along(points, 1000), metro_hop)

    def write(self, out):
        os.makedirs(out, exist_ok=True)

        def put(name, header, rows):
            with open(os.path.join(out, name), "w", encoding="utf-8", newline="") as f:
                f.write(header + "\n")
                f.write("\n".join(rows))
                f.write("\n")
            return len(rows)

        counts = {}
        counts["agency.txt"] = put("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_lang", [
            "LUB,Lumera Bus,https://transit.lumera.example/bus,Europe/Rome,it",
            "LUM,Lumera Metro e Tram,https://transit.lumera.example/metro,Europe/Rome,it",
        ])
        stops = []
        for node, platforms in sorted(self.station_platforms.items()):
            lat, lon = position(*self.nodes[node])
            stops.append(f"{self.station_id(node)},,\"{self.station_name(node)}\",{lat:.6f},{lon:.6f},1,,")
        for pid, name, lat, lon, station, code in self.platforms:
            stops.append(f"{pid},C{len(stops):05d},\"{name}\",{lat:.6f},{lon:.6f},0,{station},{code}")
        counts["stops.txt"] = put("stops.txt", "stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code", stops)
        counts["routes.txt"] = put("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color", [
            f"{rid},{agency},{short},\"{long}\",{rtype},{colour}" for rid, agency, short, long, rtype, colour in self.routes])
        counts["trips.txt"] = put("trips.txt", "route_id,service_id,trip_id,trip_headsign,direction_id", [
            f"{rid},{SERVICE},{tid},\"{headsign}\",{direction}" for rid, tid, headsign, direction in self.trips])
        counts["stop_times.txt"] = put("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence", self.stop_times)
        counts["calendar.txt"] = put("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date", [
            f"{SERVICE},1,1,1,1,1,0,0,20260101,20261231"])
        counts["transfers.txt"] = put("transfers.txt", "from_stop_id,to_stop_id,transfer_type,min_transfer_time", [
            f"{self.station_id(node)},{self.station_id(node)},2,{TRANSFER_SECONDS}"
            for node, platforms in sorted(self.station_platforms.items()) if len(platforms) > 1])
        return counts


def clock(seconds):
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def generate(out, seed):
    city = City(seed)
    city.build()
    counts = city.write(out)
    stations = len(city.station_platforms)
    return {"files": counts, "stations": stations, "platforms": len(city.platforms), "routes": len(city.routes),
            "trips": len(city.trips), "stop_times": len(city.stop_times)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="the folder to write the feed into")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    summary = generate(args.out, args.seed)
    print(f"Lumera (seed {args.seed}): {summary['stations']} stations, {summary['platforms']} platforms, "
          f"{summary['routes']} routes, {summary['trips']} trips, {summary['stop_times']} stop times in {args.out}")


if __name__ == "__main__":
    main()
