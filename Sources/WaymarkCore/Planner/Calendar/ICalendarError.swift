import Foundation

/// Why a file cannot be read as iCalendar at all. Thrown only for the file as a whole (not
/// UTF-8, too big, broken nesting): a single bad event is skipped with a reason instead, so one
/// odd entry never costs a person the rest of their calendar.
public struct ICalendarError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The 1-based line the problem is on, or nil when it concerns the whole file.
    public var line: Int?
    /// Plain English, without the line number.
    public var message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    /// "Line 12: END:VEVENT closes a VTODO."
    public var description: String { line.map { "Line \($0): \(message)" } ?? message }

    public var errorDescription: String? { description }
}
