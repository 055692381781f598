import Foundation

/// Why an importer refused part of a file, in words an operator acts on: the file, the item in
/// it ("feature 4 (lot 'P1')", "track 'Ridge'", "line 12"; nil for the file as a whole) and the
/// rule broken. Trail and site imports both report these.
public struct FileProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var item: String?
    public var rule: String

    public init(file: String, item: String?, rule: String) { self.file = file; self.item = item; self.rule = rule }

    public var description: String { [file, item].compactMap { $0 }.joined(separator: ", ") + ": " + rule }
}
