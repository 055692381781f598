import Foundation

/// One parameter of a content line, `TZID=Europe/Rome` or `MEMBER="a","b"`: a name and its
/// values, quotes removed and RFC 6868 caret escapes (`^n`, `^^`, `^'`) decoded.
public struct ICalendarParameter: Hashable, Sendable {
    /// Upper-cased, as names are case-insensitive.
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One content line after unfolding: `NAME;PARAM=VALUE:value`. The value is kept raw (not
/// unescaped) because how to read it depends on its type, which only the reader of the
/// property knows.
public struct ICalendarProperty: Hashable, Sendable {
    /// Upper-cased, with any stray whitespace removed.
    public var name: String
    public var parameters: [ICalendarParameter]
    public var value: String
    /// The 1-based line of the file the property starts on.
    public var line: Int
    /// The unfolded line as it was in the file, so a property Waymark does not read can be
    /// written back exactly.
    public var raw: String

    public init(name: String, parameters: [ICalendarParameter] = [], value: String, line: Int = 0, raw: String? = nil) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        self.raw = raw ?? ICalendarProperty.contentLine(name: name, parameters: parameters, value: value)
    }

    /// The first value of a parameter, or nil.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name.uppercased() }?.values.first
    }

    /// A content line (unfolded) from its parts, quoting parameter values that need it.
    public static func contentLine(name: String, parameters: [ICalendarParameter] = [], value: String) -> String {
        var out = name
        for p in parameters {
            out += ";" + p.name + "=" + p.values.map(ICalendarText.parameterValue).joined(separator: ",")
        }
        return out + ":" + value
    }
}

/// A `BEGIN:NAME` … `END:NAME` block with its properties and nested blocks, in file order.
public struct ICalendarComponent: Hashable, Sendable {
    /// Upper-cased: VCALENDAR, VEVENT, VALARM, …
    public var name: String
    public var properties: [ICalendarProperty]
    public var components: [ICalendarComponent]
    /// The line of its BEGIN.
    public var line: Int

    public init(name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [], line: Int = 0) {
        self.name = name
        self.properties = properties
        self.components = components
        self.line = line
    }

    public func properties(_ name: String) -> [ICalendarProperty] {
        let n = name.uppercased()
        return properties.filter { $0.name == n }
    }

    /// The first property of that name, or nil.
    public func property(_ name: String) -> ICalendarProperty? {
        let n = name.uppercased()
        return properties.first { $0.name == n }
    }

    /// The unfolded content lines of the block, BEGIN to END, properties as they were read.
    public var contentLines: [String] {
        ["BEGIN:\(name)"] + properties.map(\.raw) + components.flatMap(\.contentLines) + ["END:\(name)"]
    }
}

/// A parsed file: its top-level components, and the lines that were not content lines and
/// were passed over (each with a reason a person can read).
public struct ICalendarDocument: Hashable, Sendable {
    public struct IgnoredLine: Hashable, Sendable {
        public var line: Int
        public var reason: String
    }

    public var components: [ICalendarComponent]
    public var ignored: [IgnoredLine]

    public init(components: [ICalendarComponent], ignored: [IgnoredLine] = []) {
        self.components = components
        self.ignored = ignored
    }
}
