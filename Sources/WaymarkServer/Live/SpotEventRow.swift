import Foundation
import WaymarkAPI
import WaymarkCore

/// The live-event row of one lot's spot changes in one commit (kind `spots`), and how a stream
/// turns it back into the contract's `spot` events.
///
/// The payload is the lot's counters after the commit as JSON on the first line, then one line
/// per changed spot, in event order: `<ordinal> <state letter> <observed-at millis>`. A commit
/// of a busy gateway changes thousands of spots over a dozen lots; as one row per lot it costs
/// the database a dozen rows instead of thousands, and the lot's counters are stored once
/// instead of once per spot. Every event of the row carries the same counters, as they did
/// when each had a row of its own.
enum SpotEventRow {
    static let kind = "spots"
    /// The kind of each event a row stands for.
    static let eventKind = "spot"

    struct Change: Sendable, Equatable {
        var ordinal: Int
        var state: SpotState
        var atMillis: Int64
    }

    static func payload(lotJSON: String, changes: [Change]) -> String {
        var text = lotJSON
        text.reserveCapacity(lotJSON.utf8.count + changes.count * 22)
        for c in changes {
            text += "\n\(c.ordinal) \(c.state.rawValue) \(c.atMillis)"
        }
        return text
    }

    /// The lot's counters: the first line.
    static func lot(payload: String) -> Components.Schemas.LotOccupancy? {
        let json = payload.utf8.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? payload.utf8[...]
        return try? LiveEncoding.decoder.decode(Components.Schemas.LotOccupancy.self, from: Data(json))
    }

    static func changes(payload: String) -> [Change] {
        payload.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst().compactMap { line in
            let parts = line.split(separator: UInt8(ascii: " "))
            guard parts.count == 3, let ordinal = Int(Substring(parts[0])), parts[1].count == 1,
                  let state = SpotState(code: Character(Unicode.Scalar(parts[1].first!))),
                  let at = Int64(Substring(parts[2])) else { return nil }
            return Change(ordinal: ordinal, state: state, atMillis: at)
        }
    }

    /// Each change's `SpotChange` JSON, as the contract's `spot` event carries it: written by
    /// hand with keys sorted as `LiveEncoding` sorts them, since every value is an id, a
    /// number, a state letter or a date, none of which needs escaping, and the lot's part is
    /// the same in all of them.
    static func eventData(lotId: String, payload: String) -> [String] {
        let lotJSON = payload.utf8.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first.map { String(Substring($0)) } ?? payload
        var lastMillis: Int64?
        var lastTime = ""
        return changes(payload: payload).map { c in
            // A gateway's batch shares its observation times: formatted once per run of them.
            if c.atMillis != lastMillis {
                lastMillis = c.atMillis
                lastTime = WaymarkDateTranscoder.string(millis: c.atMillis)
            }
            return "{\"at\":\"\(lastTime)\",\"lot\":\(lotJSON),\"lotId\":\"\(lotId)\",\"ordinal\":\(c.ordinal),\"state\":\"\(c.state.rawValue)\"}"
        }
    }
}
