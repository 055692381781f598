import Foundation
import NIOCore
import Vapor
import VaporTesting
@testable import WaymarkServer

struct TestResponse {
    var status: HTTPStatus
    var headers: HTTPHeaders
    var body: Data
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var problemType: String? { (json["type"] as? String)?.replacingOccurrences(of: "https://waymark.dev/problems/", with: "") }
}

extension TestContext {
    /// A `PUT /v1/me/permits` body holding the demo site's permits by code; "handicap" is the
    /// placard, held without a site.
    func permitsBody(_ codes: [String]) -> [String: Any] {
        ["permits": codes.map { $0 == "handicap" ? ["permit": $0] : ["siteId": siteId, "permit": $0] }]
    }

    /// The codes of an answer's permits, in its order (the placard first, then by site and code).
    static func permitCodes(_ json: [String: Any]) -> [String]? {
        (json["permits"] as? [[String: Any]])?.compactMap { $0["permit"] as? String }
    }

    /// A request with an optional bearer token and JSON body.
    @discardableResult
    func call(_ method: HTTPMethod, _ path: String, token: String? = nil, json: [String: Any]? = nil,
              body: Data? = nil, contentType: String? = nil, headers extra: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = extra
        if let token { headers.add(name: .authorization, value: "Bearer \(token)") }
        var buffer: ByteBuffer?
        if let json {
            headers.add(name: .contentType, value: "application/json")
            buffer = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
        } else if let body {
            headers.add(name: .contentType, value: contentType ?? "application/octet-stream")
            buffer = ByteBuffer(data: body)
        }
        let res = try await tester.sendRequest(method, path, headers: headers, body: buffer)
        return TestResponse(status: res.status, headers: res.headers, body: Data(buffer: res.body))
    }

    static let password = "Str0ng!pass"

    /// Registers and returns (token, user id).
    func register(_ username: String, password: String = TestContext.password, email: String? = nil,
                  device: String? = nil) async throws -> (token: String, id: String) {
        var body: [String: Any] = ["username": username, "password": password]
        if let email { body["email"] = email }
        let res = try await call(.POST, "/v1/accounts", token: device, json: body)
        guard res.status == .created, let token = res.json["token"] as? String,
              let id = (res.json["user"] as? [String: Any])?["id"] as? String
        else { throw TestFailure("register \(username): \(res.status) \(String(decoding: res.body, as: UTF8.self))") }
        return (token, id)
    }

    func device() async throws -> (token: String, id: String) {
        let res = try await call(.POST, "/v1/devices")
        guard res.status == .created, let token = res.json["token"] as? String,
              let id = (res.json["user"] as? [String: Any])?["id"] as? String else { throw TestFailure("device: \(res.status)") }
        return (token, id)
    }

    func signIn(_ username: String, _ password: String = TestContext.password, device: String? = nil) async throws -> TestResponse {
        try await call(.POST, "/v1/sessions", token: device, json: ["username": username, "password": password])
    }

    /// Every row of every table of the database, as text, for erasure checks.
    func allRows() async throws -> [String: [String]] {
        let sql = services.store.sql
        let tables: [String]
        if services.store.isPostgres {
            tables = try await sql.raw("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'").all()
                .map { try $0.decode(column: "name", as: String.self) }
        } else {
            tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table'").all()
                .map { try $0.decode(column: "name", as: String.self) }
        }
        var out: [String: [String]] = [:]
        for table in tables {
            let rows = try await sql.raw("SELECT * FROM \(unsafeRaw: "\"\(table)\"")").all()
            out[table] = rows.map { row in
                row.allColumns.map { column in
                    (try? row.decode(column: column, as: String?.self)).flatMap { $0 } ?? ""
                }.joined(separator: "|")
            }
        }
        return out
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
