import CSV
import Foundation
import WaymarkCore

/// A staff directory from a spreadsheet's CSV export: a header row, then one person per row.
/// Column names are matched without regard to case, spaces or underscores ("Office Hours").
public enum StaffCSV {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// Numbered lines, each naming the row and the rule broken.
        public let problems: [String]
        public var description: String { problems.joined(separator: "\n") }
    }

    static let columns = ["name", "title", "department", "building", "room", "email", "officehours"]
    static let required: Set<String> = ["name", "building", "room"]
    static let maxField = 300
    public static let maxRows = 100_000

    public static func parse(_ text: String, file: String = "the CSV file") throws(Failure) -> [StaffMember] {
        var problems: [String] = []
        func problem(_ s: String) { problems.append(s) }
        let reader: CSVReader
        do { reader = try CSVReader(string: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text, hasHeaderRow: true, trimFields: true) } catch {
            throw Failure(problems: ["1. \(file): not a CSV file (\(error))."])
        }
        let header = (reader.headerRow ?? []).map { $0.lowercased().filter { $0.isLetter } }
        var index: [String: Int] = [:]
        for (i, h) in header.enumerated() where index[h] == nil { index[h] = i }
        let missing = columns.filter { required.contains($0) && index[$0] == nil }
        if !missing.isEmpty {
            throw Failure(problems: ["1. \(file), row 1: the header lacks the column\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", ")) (it has: \(reader.headerRow?.joined(separator: ", ") ?? "nothing"))."])
        }
        var out: [StaffMember] = []
        var seen: [String: Int] = [:]
        var row = 1
        while let fields = reader.next() {
            row += 1
            if fields.allSatisfy(\.isEmpty) { continue }
            guard out.count < maxRows else { problem("\(file): more than \(maxRows) people."); break }
            func value(_ column: String) -> String? {
                guard let i = index[column], i < fields.count else { return nil }
                let v = fields[i].trimmingCharacters(in: .whitespacesAndNewlines)
                return v.isEmpty ? nil : v
            }
            var bad = false
            for column in columns {
                if required.contains(column), value(column) == nil { problem("\(file), row \(row): `\(column)` is empty."); bad = true }
                if let v = value(column), v.count > maxField { problem("\(file), row \(row): `\(column)` is longer than \(maxField) characters."); bad = true }
            }
            if let email = value("email"), !email.contains("@") { problem("\(file), row \(row): `email` \"\(email)\" is not an email address."); bad = true }
            guard !bad, let name = value("name"), let building = value("building"), let room = value("room") else { continue }
            let member = StaffMember(name: name, title: value("title"), department: value("department"), building: building, room: room,
                                     email: value("email"), officeHours: value("officehours"))
            if let first = seen[member.id] {
                problem("\(file), row \(row): the same person as row \(first) (\(name) in \(building) \(room)).")
                continue
            }
            seen[member.id] = row
            out.append(member)
        }
        if let error = reader.error { problem("\(file), row \(row + 1): \(error).") }
        guard problems.isEmpty else {
            throw Failure(problems: problems.enumerated().map { "\($0.offset + 1). \($0.element)" })
        }
        return out
    }
}
