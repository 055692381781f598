import Foundation

/// An event as it goes in and out of an iCalendar file (PLN-10), in Waymark's own terms: wall
/// times in an IANA zone, a weekly repeat, cancelled and moved occurrences. The server turns it
/// into a stored event; travel legs and other single events it makes can use it as well.
///
/// Two events are equal when everything about the event is; `line`, which only says where it
/// was read, does not count.
public struct CalendarEvent: Hashable, Sendable {
    /// The iCalendar UID: how an override finds its series, and how a re-import recognises an
    /// event it has seen. Occurrences added one by one get `<uid>#<yyyymmddThhmm>`.
    public var uid: String
    public var title: String
    public var description: String?
    public var locationName: String?
    /// From GEO.
    public var coordinate: Coordinate?
    public var start: WallTime
    public var end: WallTime
    public var zone: TimeZone
    /// A DATE event: 00:00 to the next day's 00:00 in its zone, written back as dates.
    public var allDay: Bool
    /// Set for a flexible event: how long it takes, placed by the plan inside start…end
    /// (`X-WAYMARK-FLEXIBLE-MINUTES`, which other calendars keep and ignore).
    public var flexibleMinutes: Int?
    public var repeats: WeeklyRepeat?
    /// Cancelled occurrences by their original day (EXDATE).
    public var cancelled: Set<LocalDay>
    /// Moved occurrences: original day → new wall times (a RECURRENCE-ID override).
    public var moved: [LocalDay: ClosedRange<WallTime>]
    /// Content lines (unfolded) of the VEVENT's properties and sub-components (VALARM, …) that
    /// Waymark does not read, written back on export as they were. Lines with a TZID parameter
    /// are not kept: they would name a zone the export does not describe.
    public var extra: [String]
    /// The line of the VEVENT it was read from, so a later check can point at it; 0 for an event
    /// not read from a file. Never written.
    public var line: Int

    public init(uid: String, title: String, description: String? = nil, locationName: String? = nil,
                coordinate: Coordinate? = nil, start: WallTime, end: WallTime, zone: TimeZone, allDay: Bool = false,
                flexibleMinutes: Int? = nil, repeats: WeeklyRepeat? = nil, cancelled: Set<LocalDay> = [],
                moved: [LocalDay: ClosedRange<WallTime>] = [:], extra: [String] = [], line: Int = 0) {
        self.uid = uid
        self.title = title
        self.description = description
        self.locationName = locationName
        self.coordinate = coordinate
        self.start = start
        self.end = end
        self.zone = zone
        self.allDay = allDay
        self.flexibleMinutes = flexibleMinutes
        self.repeats = repeats
        self.cancelled = cancelled
        self.moved = moved
        self.extra = extra
        self.line = line
    }

    public static func == (a: CalendarEvent, b: CalendarEvent) -> Bool {
        a.uid == b.uid && a.title == b.title && a.description == b.description && a.locationName == b.locationName
            && a.coordinate == b.coordinate && a.start == b.start && a.end == b.end && a.zone == b.zone && a.allDay == b.allDay
            && a.flexibleMinutes == b.flexibleMinutes && a.repeats == b.repeats && a.cancelled == b.cancelled && a.moved == b.moved
            && a.extra == b.extra
    }

    /// Equal events hash alike: a few of the compared fields are enough.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uid)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(title)
    }

    /// An all-day event on `day`, as a DATE event reads: midnight to midnight in `zone`.
    public static func allDay(uid: String, title: String, day: LocalDay, zone: TimeZone) -> CalendarEvent {
        CalendarEvent(uid: uid, title: title, start: WallTime(day: day, minute: 0), end: WallTime(day: day.adding(days: 1), minute: 0),
                      zone: zone, allDay: true)
    }

    public var schedule: EventSchedule {
        EventSchedule(start: start, end: end, zone: zone, repeats: repeats, cancelled: cancelled, moved: moved)
    }

    /// Minutes on the wall clock from start to end.
    public var minutes: Int { start.minutes(to: end) }
}
