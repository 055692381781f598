import Foundation
import Testing
import WaymarkCore

/// PRK-1: the demo site, its lots and every spot in them.
@Suite("Demo campus (PRK-1)")
struct DemoCampusTests {
    let site = DemoCampus.fullerton

    func layout(_ lot: LotPlan) -> [SpotPlan] { SpotLayout.spots(for: lot, siteCode: site.code) }

    @Test("PRK-1: at least 8 lots and 8,000 spots, structures and surface lots")
    func prk1SiteSize() {
        #expect(site.code == "csuf")
        #expect(site.timeZone == "America/Los_Angeles")
        #expect(TimeZone(identifier: site.timeZone) != nil)
        #expect(site.lots.count >= 8)
        #expect(site.capacity >= 8_000)
        #expect(site.lots.reduce(0) { $0 + layout($1).count } >= 8_000)
        #expect(site.lots.contains { $0.kind == .structure && $0.levels > 1 })
        #expect(site.lots.contains { $0.kind == .surface })
        for name in ["Nutwood Parking Structure", "State College Parking Structure",
                     "Eastside North Parking Structure", "Eastside South Parking Structure", "Lot A", "Lot G"] {
            #expect(site.lots.contains { $0.name == name }, "missing \(name)")
        }
    }

    @Test("PRK-1: lots sit on campus, with realistic outlines that do not overlap")
    func prk1LotGeometry() {
        let codes = site.lots.map { $0.code.lowercased() }
        #expect(Set(codes).count == codes.count, "lot codes must be unique, they prefix sensor ids")
        for lot in site.lots {
            #expect(lot.code.allSatisfy { $0.isLetter || $0.isNumber }, "\(lot.code)")
            #expect(lot.footprint.count >= 3 && lot.footprint.allSatisfy(\.isValid))
            #expect(Geo.distance(lot.center, site.center) < 1_500, "\(lot.code) is off campus")
            let sides = zip(lot.footprint, lot.footprint.dropFirst() + [lot.footprint[0]]).map { Geo.distance($0, $1) }
            switch lot.kind {
            case .structure:
                #expect(lot.levels >= 2 && lot.levels <= 8, "\(lot.code)")
                #expect(sides.allSatisfy { (40...200).contains($0) }, "\(lot.code) sides \(sides)")
            case .surface:
                #expect(lot.levels == 1, "\(lot.code)")
                #expect(sides.allSatisfy { $0 <= 400 }, "\(lot.code) sides \(sides)")
            }
            #expect(Self.distanceToOutline(lot.entrance, lot.footprint) < 5, "\(lot.code) entrance is not on its outline")
            for other in site.lots where other.code != lot.code {
                #expect(!other.footprint.contains { Geo.contains(lot.footprint, $0) }, "\(other.code) overlaps \(lot.code)")
            }
        }
    }

    @Test("PRK-1: rules, hours and prices are well formed and mean something")
    func prk1RulesAndPrices() {
        for lot in site.lots {
            #expect(lot.capacity > 0 && lot.handicapSpots > 0 && lot.evSpots >= 0, "\(lot.code)")
            #expect(lot.handicapSpots + lot.evSpots < lot.capacity, "\(lot.code)")
            #expect(!lot.permitRules.isEmpty && !lot.rules.isEmpty && !lot.hours.isEmpty && !lot.address.isEmpty, "\(lot.code)")
            for rule in lot.permitRules {
                #expect(!rule.weekdays.isEmpty && rule.weekdays.isSubset(of: Set(1...7)), "\(lot.code)")
                #expect(0 <= rule.startMinute && rule.startMinute < rule.endMinute && rule.endMinute <= 1440, "\(lot.code)")
                #expect(!rule.permits.isEmpty, "\(lot.code)")
            }
            for h in lot.hours {
                #expect(!h.weekdays.isEmpty && h.weekdays.isSubset(of: Set(1...7)), "\(lot.code)")
                #expect(0 <= h.openMinute && h.openMinute < h.closeMinute && h.closeMinute <= 1440, "\(lot.code)")
            }
            #expect(lot.price.currency == "USD" && lot.price.hourlyCents > 0, "\(lot.code)")
            #expect(lot.price.dailyMaxCents >= lot.price.hourlyCents, "\(lot.code)")
        }
        let nps = site.lot(code: "NPS")!
        let tuesday10 = (weekday: 3, minute: 10 * 60)
        #expect(PermitCheck.isAllowed(holding: [.green], rules: nps.permitRules, weekday: tuesday10.weekday, minute: tuesday10.minute))
        #expect(!PermitCheck.isAllowed(holding: [.yellow], rules: nps.permitRules, weekday: tuesday10.weekday, minute: tuesday10.minute))
        #expect(!PermitCheck.isAllowed(holding: [], rules: nps.permitRules, weekday: tuesday10.weekday, minute: tuesday10.minute))
        #expect(PermitCheck.isAllowed(holding: [], rules: nps.permitRules, weekday: 1, minute: 10 * 60), "weekends are open to all")
        #expect(PermitCheck.isAllowed(holding: [], rules: nps.permitRules, weekday: 3, minute: 23 * 60), "late evening is open to all")
        let f = site.lot(code: "F")!
        #expect(!PermitCheck.isAllowed(holding: [.green], rules: f.permitRules, weekday: 3, minute: 10 * 60), "Lot F is faculty/staff")
        #expect(PermitCheck.isAllowed(holding: [.black], rules: f.permitRules, weekday: 3, minute: 10 * 60))
        #expect(site.lots.contains { $0.permitRules.contains { $0.permits.contains(.yellow) } })
        #expect(site.lots.contains { $0.rules.contains { $0.contains("attendant") } }, "a valet or stacked lot")
        let price = site.lot(code: "NPS")!.price
        #expect(price.cents(forMinutes: 90) == 800, "hours are charged whole")
        #expect(price.cents(forMinutes: 5 * 60) == 1_000, "capped at the daily maximum")
        #expect(price.cents(forMinutes: 25 * 60) == 1_400)
        #expect(site.lot(code: "SCPS")!.isOpen(weekday: 3, minute: 12 * 60))
        #expect(!site.lot(code: "SCPS")!.isOpen(weekday: 1, minute: 12 * 60))
    }

    @Test("PRK-1: each lot has exactly its capacity, ordinals 0..<capacity, every stall inside the outline")
    func prk1SpotsInsideLots() {
        for lot in site.lots {
            let spots = layout(lot)
            #expect(spots.count == lot.capacity, "\(lot.code)")
            let ordinalsInOrder = spots.map(\.ordinal) == Array(0..<lot.capacity)
            #expect(ordinalsInOrder, "\(lot.code)")
            #expect(Set(spots.map(\.label)).count == spots.count, "\(lot.code) labels repeat")
            let outside = spots.filter { !Geo.contains(lot.footprint, $0.center) }
            #expect(outside.count == 0, "\(lot.code): \(outside.count) centres outside, e.g. \(outside.first?.label ?? "")")
            let cornersOutside = spots.filter { $0.corners.contains { !Geo.contains(lot.footprint, $0) } }
            #expect(cornersOutside.count == 0, "\(lot.code): \(cornersOutside.count) stalls cross the outline")
            #expect(Set(spots.map(\.level)) == Set(0..<lot.levels), "\(lot.code) levels")
            #expect(zip(spots, spots.dropFirst()).allSatisfy { $0.level <= $1.level }, "\(lot.code): ordinals go level by level")
            #expect(spots.allSatisfy { (2.0...3.0).contains($0.widthMetres) && (4.5...6.0).contains($0.lengthMetres) },
                    "\(lot.code): the demo lots fit full-size stalls")
        }
    }

    @Test("PRK-1: sensor ids are unique across the site")
    func prk1UniqueSensorIds() {
        let ids = site.lots.flatMap { layout($0).map(\.sensorId) }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("csuf-") && $0 == $0.lowercased() })
        let nps = layout(site.lot(code: "NPS")!)
        #expect(nps.contains { $0.sensorId == "csuf-nps-2-117" && $0.label == "2-117" && $0.level == 1 })
    }

    @Test("PRK-1: the layout is deterministic")
    func prk1Deterministic() {
        for lot in site.lots {
            let same = layout(lot) == layout(lot)
            #expect(same, "\(lot.code)")
        }
        // Also independent of where the outline starts.
        let lot = site.lot(code: "A")!
        var turned = lot
        turned.footprint = Array(lot.footprint[2...] + lot.footprint[..<2])
        let a = layout(lot), b = layout(turned)
        #expect(a.count == b.count)
        #expect(zip(a, b).allSatisfy { Geo.distance($0.center, $1.center) < 0.01 && $0.label == $1.label })
    }

    @Test("PRK-1: no two stalls on a floor overlap")
    func prk1NoOverlap() {
        for code in ["NPS", "A", "G", "CP", "D"] {
            let lot = site.lot(code: code)!
            let ground = layout(lot).filter { $0.level == 0 }
            let origin = lot.center
            let points = ground.map { Geo.localMetres(of: $0.center, from: origin) }
            let minGap = ground.map(\.widthMetres).min()! - 0.01
            for i in points.indices {
                for j in points.indices where j > i {
                    let d = hypot(points[i].east - points[j].east, points[i].north - points[j].north)
                    if d < minGap {
                        Issue.record("\(code): \(ground[i].label) and \(ground[j].label) are \(d) m apart")
                        return
                    }
                }
            }
        }
    }

    @Test("PRK-1: structures repeat the same stall grid on every floor")
    func prk1SameGridEachLevel() {
        let lot = site.lot(code: "NPS")!
        let spots = layout(lot)
        let byLevel = Dictionary(grouping: spots, by: \.level)
        let ground = byLevel[0]!
        for level in 1..<lot.levels {
            let floor = byLevel[level]!
            #expect(floor.count == ground.count)
            #expect(zip(ground, floor).allSatisfy { Geo.distance($0.center, $1.center) < 0.001 && $0.headingDegrees == $1.headingDegrees })
            #expect(floor.first?.label == "\(level + 1)-1")
        }
        // Uneven capacity: lower floors take the remainder.
        let enps = site.lot(code: "ENPS")!
        #expect(enps.capacity % enps.levels != 0, "this check needs a lot whose floors cannot be equal")
        let counts = Dictionary(grouping: layout(enps), by: \.level).mapValues(\.count)
        #expect(counts.values.max()! - counts.values.min()! == 1)
        #expect(counts[0]! > counts[enps.levels - 1]!)
    }

    @Test("PRK-1: accessible stalls nearest the entrance on the ground, EV stalls next")
    func prk1CategoriesNearEntrance() {
        for lot in site.lots {
            let spots = layout(lot)
            let hc = spots.filter { $0.category == .handicap }
            let ev = spots.filter { $0.category == .ev }
            #expect(hc.count == lot.handicapSpots, "\(lot.code)")
            #expect(ev.count == lot.evSpots, "\(lot.code)")
            #expect(hc.allSatisfy { $0.level == 0 }, "\(lot.code)")
            #expect(ev.allSatisfy { $0.level == 0 }, "\(lot.code)")
            let ground = spots.filter { $0.level == 0 }.map { Geo.distance($0.center, lot.entrance) }.sorted()
            let farthestHandicap = hc.map { Geo.distance($0.center, lot.entrance) }.max() ?? 0
            #expect(farthestHandicap <= ground[ground.count / 4], "\(lot.code): accessible stalls are not near the entrance")
            if let nearestEV = ev.map({ Geo.distance($0.center, lot.entrance) }).min() {
                #expect(nearestEV >= farthestHandicap - 0.001, "\(lot.code)")
            }
        }
    }

    @Test("PRK-1: numbering starts at the entrance")
    func prk1NumberingFromEntrance() {
        for lot in site.lots {
            let ground = layout(lot).filter { $0.level == 0 }
            let d = ground.map { Geo.distance($0.center, lot.entrance) }
            let firstTenth = d.prefix(max(1, d.count / 10)).reduce(0, +) / Double(max(1, d.count / 10))
            let lastTenth = d.suffix(max(1, d.count / 10)).reduce(0, +) / Double(max(1, d.count / 10))
            #expect(firstTenth < lastTenth, "\(lot.code)")
        }
    }

    @Test("PRK-1: rows follow the long axis of the outline")
    func prk1RowsAlongLongAxis() {
        // A 120 × 50 m lot whose long side runs 30° east of north: cars face 120° or 300°.
        let centre = Coordinate(latitude: 33.88, longitude: -117.88)
        let b = 30.0 * Double.pi / 180
        let along = (sin(b), cos(b)), across = (cos(b), -sin(b))
        let ring = [(-60.0, -25.0), (60, -25), (60, 25), (-60, 25)].map { l, w in
            Geo.offset(centre, east: l * along.0 + w * across.0, north: l * along.1 + w * across.1)
        }
        let lot = Self.lot(footprint: ring, entrance: ring[0], capacity: 150)
        let spots = SpotLayout.spots(for: lot, siteCode: "test")
        #expect(spots.count == 150)
        #expect(spots.allSatisfy { abs($0.headingDegrees - 120) < 0.01 || abs($0.headingDegrees - 300) < 0.01 },
                "\(Set(spots.map { ($0.headingDegrees * 100).rounded() / 100 }))")
        #expect(spots.allSatisfy { Geo.contains(ring, $0.center) })
        for campusLot in site.lots {
            let headings = Set(layout(campusLot).map { ($0.headingDegrees * 1000).rounded() })
            #expect(headings.count == 2, "\(campusLot.code): rows in more than one direction")
        }
    }

    @Test("PRK-1: an outline too small for its capacity packs tighter rather than spilling out")
    func prk1PacksTighter() {
        let centre = Coordinate(latitude: 33.88, longitude: -117.88)
        let ring = [(-20.0, -15.0), (20, -15), (20, 15), (-20, 15)].map { Geo.offset(centre, east: $0.0, north: $0.1) }
        for (capacity, levels) in [(120, 1), (400, 2)] {
            var lot = Self.lot(footprint: ring, entrance: ring[0], capacity: capacity)
            lot.levels = levels
            let spots = SpotLayout.spots(for: lot, siteCode: "test")
            #expect(spots.count == capacity)
            #expect(spots.allSatisfy { $0.corners.allSatisfy { Geo.contains(ring, $0) } })
            #expect(spots[0].widthMetres < 2.6)
            #expect(Set(spots.map(\.sensorId)).count == capacity)
        }
        #expect(SpotLayout.spots(for: Self.lot(footprint: ring, entrance: ring[0], capacity: 0), siteCode: "test").isEmpty)
    }

    // MARK: - Helpers

    static func lot(footprint: [Coordinate], entrance: Coordinate, capacity: Int) -> LotPlan {
        LotPlan(code: "T", name: "Test", kind: .surface, levels: 1, footprint: footprint, entrance: entrance,
                capacity: capacity, handicapSpots: 2, evSpots: 2, permitRules: [], hours: [],
                price: LotPrice(currency: "USD", hourlyCents: 100, dailyMaxCents: 500), rules: [], address: "")
    }

    static func distanceToOutline(_ p: Coordinate, _ ring: [Coordinate]) -> Double {
        let pts = ring.map { Geo.localMetres(of: $0, from: p) }
        var best = Double.infinity
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            let dx = b.east - a.east, dy = b.north - a.north
            let t = max(0, min(1, -(a.east * dx + a.north * dy) / max(1e-12, dx * dx + dy * dy)))
            best = min(best, hypot(a.east + t * dx, a.north + t * dy))
        }
        return best
    }
}
