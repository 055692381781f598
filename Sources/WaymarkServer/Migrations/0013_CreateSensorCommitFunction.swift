import FluentKit
import SQLKit

/// PostgreSQL only: applies a sensor commit that the server has already worked out, in one
/// statement (PRK-2). An ingest commit as a transaction of its own was seven round trips
/// (BEGIN, lock, read, three writes, COMMIT), and at the rate of single-event requests the
/// server spent most of a commit waiting for them. Now the server reads the spots' and lots'
/// states without a transaction, decides every report as before, and hands the result to this
/// function, which applies it only if nothing it was decided from has changed since: every
/// spot's stored state and report position, every lot's version. Otherwise it changes nothing
/// and fails with `serialization_failure`, and the server does the commit the long way.
///
/// Statements inside a function take a fresh snapshot each, so the log's next id is read after
/// `LiveHub.appendLockKey` is held and ids still become visible in id order. The function
/// touches rows by key only; with no sequential scans it never mistakes the JSON arrays (100
/// rows, the planner assumes) for a reason to read a whole table.
struct CreateSensorCommitFunction: AsyncMigration {
    var name: String { "0013_CreateSensorCommitFunction" }

    static let function = "waymark_apply_sensor_commit"

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        guard sql.dialect.name == "postgresql" else { return }
        try await sql.raw("""
            CREATE FUNCTION \(unsafeRaw: Self.function)(lock_key bigint, spot_rows jsonb, lot_rows jsonb, event_rows jsonb)
            RETURNS void LANGUAGE plpgsql SET enable_seqscan = off AS $$
            DECLARE
                applied bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock(lock_key);
                -- [spot id, state, observed_at, sequence as read; state, observed_at, sequence to write]
                UPDATE spot_states s SET state = e->>4, observed_at = (e->>5)::bigint, sequence = (e->>6)::bigint
                FROM jsonb_array_elements(spot_rows) AS e
                WHERE s.spot_id = e->>0 AND s.state = e->>1
                  AND s.observed_at IS NOT DISTINCT FROM (e->>2)::bigint AND s.sequence IS NOT DISTINCT FROM (e->>3)::bigint;
                GET DIAGNOSTICS applied = ROW_COUNT;
                IF applied <> jsonb_array_length(spot_rows) THEN
                    RAISE EXCEPTION 'a spot changed since it was read' USING ERRCODE = 'serialization_failure';
                END IF;
                -- [lot id, version as read, the six counters and last_change_at to write]
                UPDATE lots l SET count_f = (e->>2)::bigint, count_o = (e->>3)::bigint, count_h = (e->>4)::bigint,
                    count_b = (e->>5)::bigint, count_c = (e->>6)::bigint, count_u = (e->>7)::bigint,
                    version = l.version + 1, last_change_at = (e->>8)::bigint
                FROM jsonb_array_elements(lot_rows) AS e
                WHERE l.id = e->>0 AND l.version = (e->>1)::bigint;
                GET DIAGNOSTICS applied = ROW_COUNT;
                IF applied <> jsonb_array_length(lot_rows) THEN
                    RAISE EXCEPTION 'a lot changed since it was read' USING ERRCODE = 'serialization_failure';
                END IF;
                -- As EventLog.append: [ids ahead of the first, event_count, site, lot, at, kind, payload]
                INSERT INTO live_events (id, event_count, site_id, lot_id, at, kind, payload)
                SELECT next.id + (e->>0)::bigint, (e->>1)::bigint, e->>2, e->>3, (e->>4)::bigint, e->>5, e->>6
                FROM jsonb_array_elements(event_rows) WITH ORDINALITY AS t(e, n),
                     (SELECT COALESCE((SELECT id + event_count FROM live_events ORDER BY id DESC LIMIT 1), 1) AS id) AS next
                ORDER BY t.n;
            END
            $$
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        guard sql.dialect.name == "postgresql" else { return }
        try await sql.raw("DROP FUNCTION \(unsafeRaw: Self.function)(bigint, jsonb, jsonb, jsonb)").run()
    }
}
