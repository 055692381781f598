import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Wayfinding over HTTP: venues from IMDF, directories, search and routes (WAY-1…WAY-6)")
struct WayfindingTests {
    /// The Palm Desert demo venue as an operator would upload it.
    static let palmDesert = DemoVenue.palmDesert
    static let archiveZip: Data = {
        let archive = IMDFArchive(manifest: ["version": .string("1.0.0"), "language": .string("en")], features: palmDesert.features())
        return try! ArchiveFiles.zip(try! archive.files(), modified: Date(timeIntervalSince1970: 1_767_225_600))
    }()
    static var venueId: String { palmDesert.venueId }

    static let directory = """
        Name,Title,Department,Building,Room,Email,Office Hours
        Ngozi Okafor,Professor,Nursing,RG,RG-102,ngozi.okafor@example.edu,"Monday, 10:00–11:30"
        Tuan Au,Lecturer,Health Science,HS,HS 201,,
        Ana Ruiz,Advisor,Student Services,RG,RG-999,ana.ruiz@example.edu,
        """

    /// An operator, and the Palm Desert venue imported by them.
    static func withVenue(_ db: TestDatabase, _ body: (TestContext, String) async throws -> Void) async throws {
        try await TestApp.with(db) { ctx in
            let olive = try await ctx.register("olive", email: "olive@example.com")
            #expect(try await ctx.app.grantOperator(login: "olive@example.com"))
            let res = try await ctx.call(.PUT, "/v1/operator/venues", token: olive.token, body: archiveZip, contentType: "application/zip")
            #expect(res.status == .ok, "\(String(decoding: res.body, as: UTF8.self))")
            #expect(res.json["venueId"] as? String == venueId)
            try await body(ctx, olive.token)
        }
    }

    @Test("WAY-1 an operator's IMDF archive becomes a venue: its buildings, levels and floor plans, with an ETag",
          arguments: TestDatabase.available)
    func importAndRead(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, _ in
            let venues = try await ctx.json("/v1/venues")["venues"] as? [[String: Any]] ?? []
            #expect(venues.map { $0["name"] as? String } == ["CSUSB Palm Desert"])
            let res = try await ctx.call(.GET, "/v1/venues/\(Self.venueId)")
            #expect(res.status == .ok)
            let buildings = res.json["buildings"] as? [[String: Any]] ?? []
            #expect(buildings.count == CSUSBBuildings.palmDesert.count)
            let rg = try #require(buildings.first { ($0["name"] as? String)?.contains("Rotary") == true || $0["code"] as? String == "RG" })
            let levels = rg["levels"] as? [[String: Any]] ?? []
            #expect(levels.count >= 1 && levels.map { $0["ordinal"] as? Int ?? -9 } == levels.map { $0["ordinal"] as? Int ?? -9 }.sorted())
            #expect((res.json["grounds"] as? [[String: Any]])?.isEmpty == false, "the grounds between buildings are a level of their own")
            let etag = try #require(res.headers.first(name: .eTag))
            let again = try await ctx.call(.GET, "/v1/venues/\(Self.venueId)", headers: ["If-None-Match": etag])
            #expect(again.status == .notModified)

            let levelId = try #require(levels.first?["id"] as? String)
            let plan = try await ctx.call(.GET, "/v1/venues/\(Self.venueId)/levels/\(levelId)/map")
            #expect(plan.status == .ok)
            #expect(plan.json["type"] as? String == "FeatureCollection")
            let features = plan.json["features"] as? [[String: Any]] ?? []
            let kinds = Set(features.compactMap { ($0["properties"] as? [String: Any])?["featureType"] as? String })
            #expect(kinds.isSuperset(of: ["unit", "opening"]), "\(kinds)")
            let geometry = try #require(features.first?["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String != nil && geometry["coordinates"] is [Any], "GeoJSON as RFC 7946 has it")
            #expect(try await ctx.call(.GET, "/v1/venues/\(Self.venueId)/levels/nope/map").status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/venues/nope").status == .notFound)
        }
    }

    @Test("WAY-1 export gives back the archive that was imported: the same features, read by the same reader without a problem",
          arguments: TestDatabase.available)
    func export(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, _ in
            let res = try await ctx.call(.GET, "/v1/venues/\(Self.venueId)/imdf")
            #expect(res.status == .ok)
            #expect(res.headers.first(name: .contentType) == "application/zip")
            #expect(res.headers.first(name: "Content-Disposition")?.hasPrefix("attachment; filename=") == true, "\(res.headers)")
            let read = IMDFReader().read(files: try ArchiveFiles.imdf.unzip(res.body))
            #expect(read.problems.isEmpty, "\(read.problems.numbered.prefix(5))")
            let original = IMDFReader().read(files: try ArchiveFiles.imdf.unzip(Self.archiveZip)).archive
            for type in IMDFFeatureType.allCases {
                #expect(read.archive?.features(type) == original?.features(type), "\(type)")
            }
        }
    }

    @Test("WAY-1 a broken archive is refused with numbered problems and the venue before it stays as it was",
          arguments: TestDatabase.available)
    func brokenArchive(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, token in
            let before = try await ctx.json("/v1/venues/\(Self.venueId)")["version"] as? Int
            // Levels and units gone: nothing to import.
            var files = try ArchiveFiles.imdf.unzip(Self.archiveZip).filter { !$0.name.hasPrefix("unit") }
            files = files.map { $0.name.hasPrefix("level") ? ($0.name, Data("{\"type\": \"FeatureCollection\", \"features\": [".utf8)) : $0 }
            let broken = try ArchiveFiles.zip(files, modified: Date())
            let res = try await ctx.call(.PUT, "/v1/operator/venues", token: token, body: broken, contentType: "application/zip")
            #expect(res.status == .unprocessableEntity)
            #expect(res.problemType == "imdf-invalid")
            let detail = res.json["detail"] as? String ?? ""
            #expect(detail.contains("1. ") && detail.contains("level.geojson"), "\(detail)")
            let notZip = try await ctx.call(.PUT, "/v1/operator/venues", token: token, body: Data("hello".utf8), contentType: "application/zip")
            #expect(notZip.status == .unprocessableEntity && (notZip.json["detail"] as? String)?.contains("not a zip") == true)
            #expect(try await ctx.json("/v1/venues/\(Self.venueId)")["version"] as? Int == before)
            let places = try await ctx.json("/v1/places?q=RG")["places"] as? [[String: Any]] ?? []
            #expect(!places.isEmpty, "the venue before still answers")
        }
    }

    @Test("WAY-1 a real, messy export (Ulm) imports over the API with its problems numbered, and strict refuses it",
          arguments: TestDatabase.available)
    func messyArchive(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, token in
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("WaymarkCoreTests/Fixtures/imdf-ulm")
            let zip = try ArchiveFiles.zip(try ArchiveFiles.imdf.folder(folder), modified: Date(timeIntervalSince1970: 1_767_225_600))
            let strict = try await ctx.call(.PUT, "/v1/operator/venues?strict=true", token: token, body: zip, contentType: "application/zip")
            #expect(strict.status == .unprocessableEntity && strict.problemType == "imdf-invalid")
            #expect((strict.json["detail"] as? String)?.contains("a strict import refuses any") == true)
            let res = try await ctx.call(.PUT, "/v1/operator/venues", token: token, body: zip, contentType: "application/zip")
            #expect(res.status == .ok, "\(String(decoding: res.body, as: UTF8.self).prefix(500))")
            let warnings = res.json["warnings"] as? [String] ?? []
            #expect(warnings.count > 10 && warnings[0].hasPrefix("1. ") && warnings.contains { $0.contains("amenity.json") })
            let venues = try await ctx.json("/v1/venues")["venues"] as? [[String: Any]] ?? []
            #expect(venues.count == 2, "beside the one before, not instead of it")
        }
    }

    @Test("WAY-1 WAY-6 only operators replace venues and directories: 401 without a session, 403 for anyone else",
          arguments: TestDatabase.available)
    func operatorsOnly(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, _ in
            let mallory = try await ctx.register("mallory")
            let anon = try await ctx.call(.PUT, "/v1/operator/venues", body: Self.archiveZip, contentType: "application/zip")
            #expect(anon.status == .unauthorized)
            let other = try await ctx.call(.PUT, "/v1/operator/venues", token: mallory.token, body: Self.archiveZip, contentType: "application/zip")
            #expect(other.status == .forbidden)
            let csv = try await ctx.call(.PUT, "/v1/operator/venues/\(Self.venueId)/directory", token: mallory.token,
                                         body: Data(Self.directory.utf8), contentType: "text/csv")
            #expect(csv.status == .forbidden)
        }
    }

    @Test("WAY-6 WAY-3 a directory from CSV: people found by name, placed in their rooms, those not on the plans listed; bad rows named",
          arguments: TestDatabase.available)
    func directory(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, token in
            let path = "/v1/operator/venues/\(Self.venueId)/directory"
            let res = try await ctx.call(.PUT, path, token: token, body: Data(Self.directory.utf8), contentType: "text/csv")
            #expect(res.status == .ok, "\(String(decoding: res.body, as: UTF8.self))")
            #expect(res.json["people"] as? Int == 3)
            #expect(res.json["unplaced"] as? [String] == ["Ana Ruiz: RG RG-999"])

            let hits = try await ctx.json("/v1/places?q=okafor&venueId=\(Self.venueId)")["places"] as? [[String: Any]] ?? []
            let ngozi = try #require(hits.first)
            #expect(ngozi["kind"] as? String == "person" && ngozi["title"] as? String == "Ngozi Okafor")
            #expect(ngozi["levelId"] is String && ngozi["position"] is [String: Any], "placed in RG-102")
            let id = try #require(ngozi["id"] as? String)
            let person = try await ctx.json("/v1/venues/\(Self.venueId)/people/\(id)")
            #expect(person["officeHours"] as? String == "Monday, 10:00–11:30")
            #expect(person["unitId"] is String)
            let place = try await ctx.json("/v1/venues/\(Self.venueId)/places/\(id)")
            #expect(place["title"] as? String == "Ngozi Okafor" && place["kind"] as? String == "person", "a shared link finds the person")
            #expect(try await ctx.call(.GET, "/v1/venues/\(Self.venueId)/places/nope").status == .notFound)
            #expect((try await ctx.json("/v1/places?q=tuan"))["places"].map { ($0 as? [[String: Any]])?.first?["title"] as? String } == "Tuan Au")

            let bad = "name,building,room\nSam Lee,RG,\n,RG,RG-101\n"
            let refused = try await ctx.call(.PUT, path, token: token, body: Data(bad.utf8), contentType: "text/csv")
            #expect(refused.status == .badRequest && refused.problemType == "csv-invalid")
            let detail = refused.json["detail"] as? String ?? ""
            #expect(detail.contains("1. The directory, row 2: `room` is empty.") && detail.contains("2. The directory, row 3: `name` is empty."), "\(detail)")
            let noHeader = try await ctx.call(.PUT, path, token: token, body: Data("who,where\nSam,RG\n".utf8), contentType: "text/csv")
            #expect((noHeader.json["detail"] as? String)?.contains("lacks the columns name, building, room") == true)
            #expect((try await ctx.json("/v1/places?q=okafor"))["places"].map { ($0 as? [[String: Any]])?.count } == 1, "the refused file changed nothing")
            let unknown = try await ctx.call(.PUT, "/v1/operator/venues/nope/directory", token: token, body: Data(Self.directory.utf8), contentType: "text/csv")
            #expect(unknown.status == .notFound)
        }
    }

    @Test("WAY-3 one search box: room numbers however written, buildings, services; limited and filtered by venue",
          arguments: TestDatabase.available)
    func search(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, _ in
            func titles(_ q: String) async throws -> [String] {
                let places = try await ctx.json("/v1/places?q=\(q.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")["places"] as? [[String: Any]] ?? []
                return places.compactMap { $0["title"] as? String }
            }
            for q in ["RG-102", "RG 102", "rg102"] { #expect(try await titles(q).first == "RG-102", "\(q)") }
            #expect(try await titles("student services").first == "Palm Desert Campus Student Services")
            #expect(try await ctx.call(.GET, "/v1/places?q=rg&limit=0").status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/places?q=rg&venueId=nope").status == .notFound)
            let three = try await ctx.json("/v1/places?q=rg&limit=3")["places"] as? [[String: Any]] ?? []
            #expect(three.count == 3)
        }
    }

    @Test("WAY-4 WAY-5 routes over HTTP: across floors with the level change named, step-free, nearest restroom from a position, clear refusals",
          arguments: TestDatabase.available)
    func routes(db: TestDatabase) async throws {
        try await Self.withVenue(db) { ctx, _ in
            func id(_ q: String) async throws -> String {
                let places = try await ctx.json("/v1/places?q=\(q)")["places"] as? [[String: Any]] ?? []
                return try #require(places.first?["id"] as? String, "\(q)")
            }
            let from = try await id("RG-101"), to = try await id("RG-201")
            let base = "/v1/venues/\(Self.venueId)/route"
            let r = try await ctx.call(.GET, "\(base)?from=\(from)&to=\(to)")
            #expect(r.status == .ok, "\(String(decoding: r.body, as: UTF8.self))")
            let steps = r.json["steps"] as? [[String: Any]] ?? []
            #expect(steps.contains { ($0["text"] as? String)?.hasPrefix("Take the stairs up to") == true || ($0["text"] as? String)?.hasPrefix("Take the elevator up to") == true })
            #expect(steps.last?["kind"] as? String == "arrive")
            #expect((r.json["seconds"] as? Double ?? 0) > 0 && (r.json["metres"] as? Double ?? 0) > 0)
            #expect(r.json["destination"] as? String == "RG-201")

            let free = try await ctx.json("\(base)?from=\(from)&to=\(to)&stepFree=true")
            #expect(free["stepFree"] as? Bool == true)
            #expect((free["steps"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "elevator" })

            let level = try #require(steps.first?["levelId"] as? String)
            let first = try #require((steps.first?["path"] as? [[String: Any]])?.first)
            let near = try await ctx.call(.GET, "\(base)?fromLatitude=\(first["latitude"]!)&fromLongitude=\(first["longitude"]!)&fromLevel=\(level)&nearest=restroom")
            #expect(near.status == .ok)
            #expect((near.json["steps"] as? [[String: Any]])?.contains { $0["kind"] as? String == "stairs" } == false, "a restroom on the same floor")

            #expect(try await ctx.call(.GET, "\(base)?to=\(to)").status == .badRequest)
            #expect(try await ctx.call(.GET, "\(base)?from=\(from)&fromLatitude=1&fromLongitude=2&to=\(to)").status == .badRequest)
            #expect(try await ctx.call(.GET, "\(base)?from=\(from)&to=\(to)&nearest=restroom").status == .badRequest)
            let unknown = try await ctx.call(.GET, "\(base)?from=\(from)&to=nowhere")
            #expect(unknown.status == .notFound && (unknown.json["detail"] as? String)?.contains("nowhere") == true)
            let kind = try await ctx.call(.GET, "\(base)?from=\(from)&nearest=information")
            #expect(kind.status == .unprocessableEntity && kind.problemType == "none-of-kind")
            #expect(try await ctx.call(.GET, "\(base)?from=\(from)&nearest=teleporter").status == .badRequest)
        }
    }
}
