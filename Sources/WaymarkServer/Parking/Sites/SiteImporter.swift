import Foundation
import Logging
import SQLKit
import WaymarkCore

public struct SiteImportReport: Sendable {
    public var siteId: String
    public var code: String
    public var name: String
    public var created: Bool
    public var lots: Changes
    public var spots: Changes

    public struct Changes: Sendable, Equatable {
        public var added = 0, updated = 0, removed = 0
    }
}

/// A site file refused whole: the site as it was stays in use.
public struct SiteImportFailure: Error, Sendable, CustomStringConvertible {
    public var summary: String
    public var problems: [String]
    public var description: String { ([summary] + problems.enumerated().map { "\($0.offset + 1). \($0.element)" }).joined(separator: "\n") }
}

/// Reads a site file and writes it in one transaction (PRK-1). A site already imported under
/// the same code is updated in place: lots are matched by code and spots by label, keeping their
/// ids, so holds, bookings, reviews and occupancy history stay with them. A lot or spot left out
/// of the file is removed, unless something a person made still hangs on it.
struct SiteImporter: Sendable {
    let store: SQLStore
    let sensorIndex: SensorIndex
    let now: @Sendable () -> Date
    let logger: Logger

    func importSite(geoJSON: Data, file: String, spotsCSV: Data? = nil, csvFile: String? = nil,
                    progress: @escaping @Sendable (_ stage: String, _ fraction: Double) -> Void = { _, _ in }) async throws -> SiteImportReport {
        progress("Checking \(file)", 0.05)
        let read = SiteImport.read(geoJSON: geoJSON, file: file, spotsCSV: spotsCSV, csvFile: csvFile)
        guard let site = read.site else {
            throw SiteImportFailure(summary: "\(file) was not imported: \(Self.count(read.problems.count, "problem")).",
                                    problems: read.problems.map(\.description))
        }
        let instant = now()
        let report = try await store.write { sql in
            try await Self.write(site, file: file, at: instant, sql: sql, progress: progress)
        }
        try await sensorIndex.reload(now: now())
        progress("Done", 1)
        logger.info("imported site", metadata: ["site": .string(site.plan.code), "lots": .stringConvertible(site.plan.lots.count)])
        return report
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    private static func write(_ site: SiteImport.ImportedSite, file: String, at instant: Date, sql: any SQLDatabase,
                              progress: @Sendable (String, Double) -> Void) async throws -> SiteImportReport {
        let plan = site.plan
        let existing = try await sql.raw("SELECT id FROM sites WHERE code = \(bind: plan.code)").first()?.decode(column: "id", as: String.self)
        let siteId = existing ?? UUID().uuidString.lowercased()
        if existing == nil {
            try await SiteRowsWriter.insertSite(plan, id: siteId, at: instant, sql: sql)
        } else {
            let before = try await SitePermitsStore.kinds(siteId: siteId, sql: sql)
            try await SiteRowsWriter.updateSite(plan, id: siteId, sql: sql)
            let removed = PermitKindChanges(from: before, to: plan.permits).removed.map(\.code)
            try await SitePermitsStore.dropHoldings(of: Set(removed), siteId: siteId, sql: sql)
        }
        try await checkSensorsFree(site, siteId: siteId, file: file, sql: sql)

        let lotIds = Dictionary(uniqueKeysWithValues: try await sql.raw("SELECT id, code FROM lots WHERE site_id = \(bind: siteId)").all().map {
            (try $0.decode(column: "code", as: String.self), try $0.decode(column: "id", as: String.self))
        })
        var report = SiteImportReport(siteId: siteId, code: plan.code, name: plan.name, created: existing == nil, lots: .init(), spots: .init())
        var problems: [String] = []
        let kept = Set(plan.lots.map(\.code))
        for (code, id) in lotIds.sorted(by: { $0.key < $1.key }) where !kept.contains(code) {
            if let why = try await inUse(lotId: id, sql: sql) {
                problems.append("\(file), lot '\(code)': it is left out of the file but \(why); keep it in the file.")
            } else {
                try await sql.raw("DELETE FROM lots WHERE id = \(bind: id)").run()
                report.lots.removed += 1
            }
        }
        // Sensor ids are unique over all spots; cleared for the whole site first so that a sensor
        // may move between spots or lots within one import.
        try await sql.raw("UPDATE spots SET sensor_id = NULL WHERE lot_id IN (SELECT id FROM lots WHERE site_id = \(bind: siteId))").run()

        for (position, lot) in plan.lots.enumerated() {
            progress("Writing lot \(lot.code)", 0.1 + 0.85 * Double(position) / Double(max(1, plan.lots.count)))
            let spots = site.spots[lot.code] ?? []
            let lotId: String
            var labels: [String: String] = [:]
            if let id = lotIds[lot.code] {
                lotId = id
                try await SiteRowsWriter.updateLot(lot, id: id, position: position, capacity: spots.count, sql: sql)
                report.lots.updated += 1
                labels = Dictionary(uniqueKeysWithValues: try await sql.raw("SELECT id, label FROM spots WHERE lot_id = \(bind: id)").all().map {
                    (try $0.decode(column: "label", as: String.self), try $0.decode(column: "id", as: String.self))
                })
            } else {
                lotId = UUID().uuidString.lowercased()
                try await SiteRowsWriter.insertLot(lot, id: lotId, siteId: siteId, position: position, capacity: spots.count,
                                                   counts: LotCounts(unknown: spots.count), at: instant, sql: sql)
                report.lots.added += 1
            }
            let wanted = Set(spots.map(\.label))
            var gone: [String] = []
            for (label, id) in labels.sorted(by: { $0.key < $1.key }) where !wanted.contains(label) {
                if try await sql.raw("SELECT 1 AS x FROM holds WHERE spot_id = \(bind: id) AND ended_at IS NULL").first() != nil {
                    problems.append("\(file), lot '\(lot.code)', spot '\(label)': it is left out of the file but someone holds it now; try again once the hold has ended.")
                } else {
                    gone.append(id)
                }
            }
            for chunk in gone.chunked(200) {
                let ids: [SQLQueryString] = chunk.map { "\(bind: $0)" }
                try await sql.raw("DELETE FROM spots WHERE id IN (\(ids.joined(separator: ", ")))").run()
            }
            report.spots.removed += gone.count
            // Ordinals are unique per lot: moved out of the way before they are given again.
            try await sql.raw("UPDATE spots SET ordinal = -1 - ordinal WHERE lot_id = \(bind: lotId)").run()
            var fresh: [(id: String, plan: SpotPlan, state: SpotState)] = []
            for spot in spots {
                if let id = labels[spot.label] {
                    try await SiteRowsWriter.updateSpot(spot, id: id, sql: sql)
                    report.spots.updated += 1
                } else {
                    fresh.append((UUID().uuidString.lowercased(), spot, .unknown))
                }
            }
            try await SiteRowsWriter.insertSpots(fresh, lotId: lotId, sql: sql)
            report.spots.added += fresh.count
            try await SiteRowsWriter.recount(lotId: lotId, at: instant, sql: sql)
        }
        guard problems.isEmpty else {
            throw SiteImportFailure(summary: "\(file) was not imported: \(count(problems.count, "problem")).", problems: problems)
        }
        return report
    }

    /// Why a lot cannot go, or nil: people's bookings, reviews or holds are on it.
    private static func inUse(lotId: String, sql: any SQLDatabase) async throws -> String? {
        let row = try await sql.raw("""
            SELECT (SELECT COUNT(*) FROM bookings WHERE lot_id = \(bind: lotId)) AS bookings,
                   (SELECT COUNT(*) FROM lot_reviews WHERE lot_id = \(bind: lotId)) AS reviews,
                   (SELECT COUNT(*) FROM holds WHERE lot_id = \(bind: lotId) AND ended_at IS NULL) AS holds
            """).first()
        let n = { (c: String) in (try? row?.decode(column: c, as: Int.self)) ?? 0 }
        let parts = [(n("bookings"), "booking"), (n("reviews"), "review"), (n("holds"), "hold")].filter { $0.0 > 0 }.map { count($0.0, $0.1) }
        return parts.isEmpty ? nil : "it has " + parts.joined(separator: " and ")
    }

    /// A sensor reports for one spot only: the file's may not be mounted on another site's spots.
    private static func checkSensorsFree(_ site: SiteImport.ImportedSite, siteId: String, file: String, sql: any SQLDatabase) async throws {
        let sensors = site.spots.values.flatMap { $0.map(\.sensorId) }
        var taken: [String] = []
        for chunk in sensors.chunked(500) {
            let ids: [SQLQueryString] = chunk.map { "\(bind: $0)" }
            taken += try await sql.raw("""
                SELECT s.sensor_id, si.code FROM spots s JOIN lots l ON l.id = s.lot_id JOIN sites si ON si.id = l.site_id
                WHERE si.id <> \(bind: siteId) AND s.sensor_id IN (\(ids.joined(separator: ", ")))
                ORDER BY s.sensor_id
                """).all().map { "\(file): sensor '\(try $0.decode(column: "sensor_id", as: String.self))' is already mounted at site '\(try $0.decode(column: "code", as: String.self))'; a sensor reports for one spot only." }
        }
        guard taken.isEmpty else {
            throw SiteImportFailure(summary: "\(file) was not imported: \(count(taken.count, "problem")).", problems: Array(taken.prefix(100)))
        }
    }
}
