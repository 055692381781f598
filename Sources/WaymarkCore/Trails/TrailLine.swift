import Foundation

extension Trail {
    /// The drawn path with only the points needed to stay within `tolerance` metres of it
    /// (Douglas–Peucker on a local plane), for maps that show many trails at once.
    public func simplifiedLine(tolerance: Double = 8) -> [Coordinate] {
        let coordinates = path.map(\.coordinate)
        guard coordinates.count > 2 else { return coordinates }
        let origin = coordinates[0]
        let xy = coordinates.map { Geo.localMetres(of: $0, from: origin) }
        var keep = [Bool](repeating: false, count: xy.count)
        keep[0] = true; keep[xy.count - 1] = true
        var stack = [(0, xy.count - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            var worst = -1.0, at = a
            for i in (a + 1)..<b {
                let d = Self.distance(xy[i], xy[a], xy[b])
                if d > worst { worst = d; at = i }
            }
            if worst > tolerance { keep[at] = true; stack.append((a, at)); stack.append((at, b)) }
        }
        return coordinates.indices.filter { keep[$0] }.map { coordinates[$0] }
    }

    private static func distance(_ p: (east: Double, north: Double), _ a: (east: Double, north: Double), _ b: (east: Double, north: Double)) -> Double {
        let dx = b.east - a.east, dy = b.north - a.north
        let length = dx * dx + dy * dy
        let t = length > 0 ? max(0, min(1, ((p.east - a.east) * dx + (p.north - a.north) * dy) / length)) : 0
        return hypot(p.east - (a.east + t * dx), p.north - (a.north + t * dy))
    }
}

extension ElevationProfile {
    /// At most `count` points of the cleaned profile, evenly spread by distance, for a chart.
    public func sampled(count: Int) -> [(metres: Double, elevation: Double)] {
        guard let end = distances.last, distances.count > 1, count > 1 else {
            return zip(distances, elevations).map { ($0, $1) }
        }
        if distances.count <= count { return zip(distances, elevations).map { ($0, $1) } }
        var out: [(Double, Double)] = []
        var j = 0
        for k in 0..<count {
            let d = end * Double(k) / Double(count - 1)
            while j + 1 < distances.count - 1 && distances[j + 1] < d { j += 1 }
            let span = distances[j + 1] - distances[j]
            let t = span > 0 ? min(1, max(0, (d - distances[j]) / span)) : 0
            out.append((d, elevations[j] + t * (elevations[j + 1] - elevations[j])))
        }
        return out
    }
}
