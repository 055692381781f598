import Foundation
import Vapor
import WaymarkCore

/// Trail administration (TRL-1) for the command line and tests.
extension Application {
    /// Imports one file's trails; what was left out is in the problems.
    public func importTrailFile(_ data: Data, file: String, eachTrack: Bool) async throws -> (trails: [(id: String, name: String, metres: Double, gain: Double)], problems: [String]) {
        let r = try await waymark.trails.importFile(data, file: file, eachTrack: eachTrack)
        return (r.saved.map { t in let m = t.measures; return (t.id, t.name, m.metres, m.gain) }, r.problems.map(\.description))
    }

    public func trailCount() async throws -> Int { try await waymark.trails.trails.count() }
}
