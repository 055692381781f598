import Foundation

/// Generates the stalls of a lot from its plan. Real stall surveys are not available for a demo
/// site, so the grid is synthesised the way a parking designer would draw it: double-loaded rows
/// along the long side of the lot, numbered outward from the entrance.
public enum SpotLayout {
    /// One way of packing stalls. The first one that fits the lot's capacity is used, so a lot
    /// whose plan asks for more than a comfortable layout allows still gets exactly its capacity,
    /// inside its outline, just with narrower aisles and stalls.
    public struct Dimensions: Hashable, Sendable {
        public var stallWidth: Double
        public var stallLength: Double
        public var aisle: Double
        /// Kept free at both ends of every row: cross aisles, ramps, stairs.
        public var endMargin: Double
        /// Kept free along the long sides: walls, kerbs, landscaping.
        public var sideMargin: Double

        public init(stallWidth: Double, stallLength: Double, aisle: Double, endMargin: Double, sideMargin: Double) {
            self.stallWidth = stallWidth
            self.stallLength = stallLength
            self.aisle = aisle
            self.endMargin = endMargin
            self.sideMargin = sideMargin
        }

        func scaled(_ f: Double) -> Dimensions {
            Dimensions(stallWidth: stallWidth * f, stallLength: stallLength * f, aisle: aisle * f,
                       endMargin: endMargin * f, sideMargin: sideMargin * f)
        }
    }

    /// Comfortable first, then what a restriping for capacity would accept.
    public static let packings: [Dimensions] = [
        Dimensions(stallWidth: 2.6, stallLength: 5.4, aisle: 7.0, endMargin: 6.0, sideMargin: 0.5),
        Dimensions(stallWidth: 2.5, stallLength: 5.2, aisle: 6.0, endMargin: 4.0, sideMargin: 0.3),
        Dimensions(stallWidth: 2.4, stallLength: 5.0, aisle: 5.0, endMargin: 2.0, sideMargin: 0.2),
    ]

    public static func spots(for lot: LotPlan, siteCode: String) -> [SpotPlan] {
        let capacity = max(0, lot.capacity)
        guard capacity > 0 else { return [] }
        let levels = max(1, lot.levels)
        let perLevelMax = (capacity + levels - 1) / levels

        let frame = Frame(footprint: lot.footprint)
        let (dims, grid) = fittingGrid(frame: frame, entrance: lot.entrance, needed: perLevelMax)

        // Same stall grid on every floor; only the count per floor may differ by one, lower
        // floors taking the remainder.
        var spots: [SpotPlan] = []
        spots.reserveCapacity(capacity)
        let prefix = "\(siteCode)-\(lot.code)".lowercased()
        for level in 0..<levels {
            let count = capacity / levels + (level < capacity % levels ? 1 : 0)
            for (k, stall) in spread(grid, keeping: count).enumerated() {
                let number = k + 1
                let label = levels > 1 ? "\(level + 1)-\(number)" : "\(number)"
                spots.append(SpotPlan(
                    ordinal: spots.count, label: label, level: level, category: .regular,
                    center: frame.coordinate(u: stall.u, v: stall.v),
                    headingDegrees: stall.heading,
                    lengthMetres: dims.stallLength, widthMetres: dims.stallWidth,
                    sensorId: "\(prefix)-\(label)"))
            }
        }
        assignCategories(&spots, lot: lot)
        return spots
    }

    // MARK: - Grid

    struct Stall {
        var u: Double, v: Double, heading: Double
    }

    /// The long-axis frame of a footprint: u runs along the longer side of its minimum-area
    /// bounding rectangle, v across it. Rows run along u so that a rotated or irregular lot is
    /// striped the way its outline suggests.
    struct Frame {
        let origin: Coordinate
        let axis: (east: Double, north: Double)
        let across: (east: Double, north: Double)
        /// Footprint in (u, v).
        let ring: [(u: Double, v: Double)]
        let axisHeading: Double

        init(footprint: [Coordinate]) {
            var pts = footprint
            if pts.count > 1, pts.first == pts.last { pts.removeLast() }
            let o = pts.isEmpty ? Coordinate(latitude: 0, longitude: 0) : Geo.centroid(pts)
            origin = o
            let local = pts.map { Geo.localMetres(of: $0, from: o) }

            var best: (area: Double, dir: (Double, Double), uLen: Double, vLen: Double)?
            for i in local.indices {
                let a = local[i], b = local[(i + 1) % local.count]
                let dx = b.east - a.east, dy = b.north - a.north
                let len = (dx * dx + dy * dy).squareRoot()
                guard len > 1e-6 else { continue }
                let d = (dx / len, dy / len)
                let us = local.map { $0.east * d.0 + $0.north * d.1 }
                let vs = local.map { -$0.east * d.1 + $0.north * d.0 }
                let uLen = us.max()! - us.min()!, vLen = vs.max()! - vs.min()!
                let area = uLen * vLen
                if best == nil || area < best!.area - 1e-6 { best = (area, d, uLen, vLen) }
            }
            var dir = best.map { $0.uLen >= $0.vLen ? $0.dir : (-$0.dir.1, $0.dir.0) } ?? (0, 1)
            // One canonical direction per axis, so equal outlines give equal layouts whichever
            // vertex they start at.
            var heading = SpotLayout.heading(east: dir.0, north: dir.1)
            if heading >= 180 - 1e-9 { dir = (-dir.0, -dir.1); heading -= 180 }
            axis = (dir.0, dir.1)
            across = (-dir.1, dir.0)
            axisHeading = heading
            let ax = axis, ac = across
            ring = local.map { (u: $0.east * ax.east + $0.north * ax.north, v: $0.east * ac.east + $0.north * ac.north) }
        }

        func uv(_ c: Coordinate) -> (u: Double, v: Double) {
            let p = Geo.localMetres(of: c, from: origin)
            return (p.east * axis.east + p.north * axis.north, p.east * across.east + p.north * across.north)
        }

        func coordinate(u: Double, v: Double) -> Coordinate {
            Geo.offset(origin, east: u * axis.east + v * across.east, north: u * axis.north + v * across.north)
        }

        func contains(u: Double, v: Double) -> Bool {
            guard ring.count >= 3 else { return false }
            var inside = false
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.v > v) != (b.v > v) {
                    let x = (b.u - a.u) * (v - a.v) / (b.v - a.v) + a.u
                    if u < x { inside.toggle() }
                }
                j = i
            }
            return inside
        }

        /// A convex stall lies inside a simple polygon when its corners do and no vertex of
        /// the polygon pokes into it; checked a hair inside so that stalls touching the
        /// outline count as outside.
        func holds(u0: Double, u1: Double, v0: Double, v1: Double) -> Bool {
            let e = 0.01
            for (u, v) in [(u0 + e, v0 + e), (u1 - e, v0 + e), (u1 - e, v1 - e), (u0 + e, v1 - e)] where !contains(u: u, v: v) {
                return false
            }
            return !ring.contains { $0.u > u0 && $0.u < u1 && $0.v > v0 && $0.v < v1 }
        }
    }

    static func fittingGrid(frame: Frame, entrance: Coordinate, needed: Int) -> (Dimensions, [Stall]) {
        var last = packings[packings.count - 1]
        for dims in packings {
            let grid = stalls(frame: frame, entrance: entrance, dims: dims)
            if grid.count >= needed { return (dims, grid) }
        }
        // Shrinking further keeps the promise of `capacity` stalls inside the outline for any
        // outline with area; such a lot is unrealistic but still well formed.
        var best: (Dimensions, [Stall]) = (last, [])
        for _ in 0..<60 {
            last = last.scaled(0.9)
            let grid = stalls(frame: frame, entrance: entrance, dims: last)
            best = (last, grid)
            if grid.count >= needed { return best }
        }
        // A degenerate outline holds nothing; stack the missing stalls on its centre so the
        // lot still has one spot per sensor.
        let missing = needed - best.1.count
        let centre = Stall(u: 0, v: 0, heading: frame.axisHeading)
        return (best.0, best.1 + Array(repeating: centre, count: missing))
    }

    /// Rows of stalls in (u, v), in numbering order: the row nearest the entrance first, each
    /// row from the end nearest the entrance.
    static func stalls(frame: Frame, entrance: Coordinate, dims d: Dimensions) -> [Stall] {
        guard frame.ring.count >= 3 else { return [] }
        let uMin = frame.ring.map(\.u).min()!, uMax = frame.ring.map(\.u).max()!
        let vMin = frame.ring.map(\.v).min()!, vMax = frame.ring.map(\.v).max()!

        // Double-loaded modules: stall row, aisle, stall row, then the next module back to
        // back; a last single row if a row and its aisle still fit.
        let module = 2 * d.stallLength + d.aisle
        let depth = vMax - vMin - 2 * d.sideMargin
        guard depth >= d.stallLength + d.aisle else { return [] }
        let modules = Int((depth / module).rounded(.down))
        let single = depth - Double(modules) * module >= d.stallLength + d.aisle
        let used = Double(modules) * module + (single ? d.stallLength + d.aisle : 0)
        var v = vMin + d.sideMargin + (depth - used) / 2
        // Cars drive in nose first from the aisle, so they face away from it.
        var rows: [(v0: Double, nosePlus: Bool)] = []
        for _ in 0..<modules {
            rows.append((v, false))
            rows.append((v + d.stallLength + d.aisle, true))
            v += module
        }
        if single { rows.append((v, false)) }

        let span = uMax - uMin - 2 * d.endMargin
        guard span >= d.stallWidth else { return [] }
        let perRow = Int((span / d.stallWidth).rounded(.down))
        let uStart = uMin + (uMax - uMin - Double(perRow) * d.stallWidth) / 2

        let e = frame.uv(entrance)
        if e.v > (vMin + vMax) / 2 { rows.reverse() }
        let uAscending = e.u <= (uMin + uMax) / 2
        let headingPlus = heading(east: frame.across.east, north: frame.across.north)
        let headingMinus = (headingPlus + 180).truncatingRemainder(dividingBy: 360)

        var out: [Stall] = []
        for row in rows {
            let v0 = row.v0, v1 = row.v0 + d.stallLength
            for i in 0..<perRow {
                let k = uAscending ? i : perRow - 1 - i
                let u0 = uStart + Double(k) * d.stallWidth
                let u1 = u0 + d.stallWidth
                // Irregular outlines cut rows short; the end margin applies there too.
                guard frame.holds(u0: u0 - d.endMargin, u1: u1 + d.endMargin, v0: v0, v1: v1) else { continue }
                out.append(Stall(u: (u0 + u1) / 2, v: (v0 + v1) / 2, heading: row.nosePlus ? headingPlus : headingMinus))
            }
        }
        return out
    }

    /// `count` of `items`, spread evenly, in their order; the left-out stalls read as pillars
    /// and walkways rather than an empty end of the lot.
    static func spread<T>(_ items: [T], keeping count: Int) -> [T] {
        let m = items.count
        guard count < m else { return items }
        guard count > 0 else { return [] }
        var kept: [T] = []
        kept.reserveCapacity(count)
        for i in 0..<m where (i + 1) * count / m > i * count / m {
            kept.append(items[i])
        }
        return kept
    }

    /// Accessible stalls go nearest the entrance on the ground, as codes require; charging
    /// stalls take the next nearest, since the chargers' feeders come in at grade.
    static func assignCategories(_ spots: inout [SpotPlan], lot: LotPlan) {
        let handicap = min(max(0, lot.handicapSpots), spots.count)
        let ev = min(max(0, lot.evSpots), spots.count - handicap)
        let order = spots.indices.sorted { a, b in
            let sa = spots[a], sb = spots[b]
            if sa.level != sb.level { return sa.level < sb.level }
            let da = Geo.distance(sa.center, lot.entrance), db = Geo.distance(sb.center, lot.entrance)
            if abs(da - db) > 1e-6 { return da < db }
            return sa.ordinal < sb.ordinal
        }
        // A plan asking for more accessible stalls than the ground holds gets the rest on the
        // next floor, by the lifts, rather than fewer than it asked for.
        for i in order.prefix(handicap) { spots[i].category = .handicap }
        var remaining = ev
        for i in order where remaining > 0 && spots[i].category == .regular {
            spots[i].category = .ev
            remaining -= 1
        }
    }

    static func heading(east: Double, north: Double) -> Double {
        var h = atan2(east, north) * 180 / .pi
        if h < 0 { h += 360 }
        if h >= 360 { h -= 360 }
        return h == 0 ? 0 : h  // no -0 in the data
    }
}
