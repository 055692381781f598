import FluentKit
import SQLKit

/// One live-event row may hold several events (`event_count`): a commit writes one row per
/// lot with all of that lot's spot changes, instead of one row per spot. Rows were what
/// bounded batched ingest (PRK-2): the same changes as one row per lot cost SQLite half the
/// work. A row's events have the ids `id` … `id + event_count - 1`, so event ids stay one
/// increasing sequence and every stream position of before still means the same.
struct GroupLiveEvents: AsyncMigration {
    var name: String { "0011_GroupLiveEvents" }

    func prepare(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("ALTER TABLE live_events ADD COLUMN event_count BIGINT NOT NULL DEFAULT 1").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("ALTER TABLE live_events DROP COLUMN event_count").run()
    }
}
