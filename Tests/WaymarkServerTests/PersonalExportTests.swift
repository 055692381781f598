import Foundation
import SQLKit
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Data export (ACC-12)")
struct PersonalExportTests {
    typealias T = TestContext

    @Test("ACC-12 a person downloads everything stored about them as JSON, without password or token hashes; nobody else's rows are in it",
          arguments: TestDatabase.available)
    func export(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let me = try await ctx.register("exporter", email: "exporter@example.org")
            try await ctx.call(.PUT, "/v1/me/profile", token: me.token, json: ["firstName": "Erin", "lastName": "Park", "email": "exporter@example.org"])
            try await ctx.topUp(me.token, cents: 2000)
            let lot = try await ctx.lotId("L")
            #expect(try await ctx.book(me.token, lot: lot, T.local(day: 19, 10), T.local(day: 19, 12)).status == .created)
            let other = try await ctx.register("neighbour")
            try await ctx.topUp(other.token, cents: 1000)

            let r = try await ctx.call(.GET, "/v1/me/export", token: me.token)
            #expect(r.status == .ok, "\(String(decoding: r.body, as: UTF8.self).prefix(300))")
            #expect(r.headers.first(name: "Content-Disposition")?.hasPrefix("attachment; filename=\"waymark-data-") == true)
            let tables = try #require(r.json["tables"] as? [String: [[String: Any]]])
            #expect(r.json["userId"] as? String == me.id)
            let user = try #require(tables["users"]?.first)
            #expect(user["username"] as? String == "exporter" && user["first_name"] as? String == "Erin" && user["email"] as? String == "exporter@example.org")
            #expect(tables["bookings"]?.count == 1 && tables["bookings"]?.first?["lot_id"] as? String == lot)
            #expect(tables["ledger_entries"]?.map { $0["movement"] as? String } == ["topUp", "bookingPayment"])
            #expect(tables["sessions"]?.isEmpty == false)
            let text = String(decoding: r.body, as: UTF8.self)
            for secret in PersonalExport.withheld { #expect(!text.contains("\"\(secret)\""), "\(secret) is withheld") }
            #expect(!text.contains(other.id) && !text.contains("neighbour"), "nobody else's rows")

            #expect(try await ctx.call(.GET, "/v1/me/export").status == .unauthorized)
        }
    }

    @Test("ACC-12 every table with a column naming a person is in the export, or said here why not")
    func everyPersonalTable() async throws {
        // A table that names a person but is left out goes here, with the reason.
        let notExported: [String: String] = [:]
        try await TestApp.with(.sqlite) { ctx in
            let sql = ctx.services.store.sql
            let tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\'").all()
                .map { try $0.decode(column: "name", as: String.self) }
            let exported = Set(PersonalExport.sources.map(\.table))
            var missing: [String] = [], personalTables = 0
            for table in tables.sorted() {
                let columns = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all().map { try $0.decode(column: "name", as: String.self) }
                guard columns.contains("user_id") || columns.contains("author_id") else { continue }
                personalTables += 1
                if !exported.contains(table), notExported[table] == nil { missing.append(table) }
            }
            #expect(personalTables >= 30, "the schema was read: \(personalTables) tables name a person")
            #expect(missing.isEmpty, "tables naming a person that the export leaves out: \(missing)")
        }
    }
}
