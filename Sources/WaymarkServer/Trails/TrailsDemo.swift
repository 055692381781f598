import Foundation
import WaymarkCore

/// Loads the demo's trails and draws their pictures, once: when no demo trail is there yet.
struct TrailsDemo: Sendable {
    let trails: TrailsServices

    func loadIfMissing() async throws {
        let present = try await trails.trails.store.sql.raw("SELECT COUNT(*) AS n FROM trails WHERE source = 'demo'").first()?
            .decode(column: "n", as: Int.self) ?? 0
        guard present == 0 else { return }
        let now = trails.now()
        for p in DemoTrails.pictures() {
            try await trails.trails.addPicture(id: p.id, contentType: "image/svg+xml", bytes: Data(DemoTrailArt.svg(p.subject, title: p.title).utf8), now: now)
        }
        let all = DemoTrails.all()
        try await trails.trails.save(all, source: .demo, now: now)
        trails.logger.info("loaded demo trails", metadata: ["trails": .stringConvertible(all.count)])
    }
}
