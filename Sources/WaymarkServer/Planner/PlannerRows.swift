import Foundation
import WaymarkCore

struct CalendarRow: Sendable, Hashable {
    var id: String
    var name: String
    var colour: CalendarColour
    var usedAt: Int64
    /// Time-to-leave alerts for its events (PLN-7).
    var leaveAlerts = true

    /// The calendar a new event goes to: the one used last (PLN-1). `calendars` is never empty.
    static func lastUsed(of calendars: [CalendarRow]) -> CalendarRow {
        calendars.max { ($0.usedAt, $1.id) < ($1.usedAt, $0.id) }!
    }
}

/// Where an event is held.
struct EventPlace: Sendable, Hashable {
    var name: String
    var coordinate: Coordinate
}

/// An event as stored: wall times in its zone, its repeat, and the occurrences cancelled or moved.
struct PlannerEventRow: Sendable, Hashable {
    var id: String
    var calendarId: String
    var title: String
    var description: String?
    var start: WallTime
    var end: WallTime
    var zone: TimeZone
    /// Set for a flexible event, placed inside start…end by the plan.
    var durationMinutes: Int?
    var repeats: WeeklyRepeat?
    var place: EventPlace?
    var modes: Set<TravelMode>
    var cancelled: Set<LocalDay> = []
    var moved: [LocalDay: ClosedRange<WallTime>] = [:]
    /// From an iCalendar file (PLN-10): its UID, the lines Waymark does not read (written back on
    /// export), and whether it was a whole-day event.
    var icalUid: String?
    var icalExtra: [String] = []
    var allDay = false

    var schedule: EventSchedule {
        EventSchedule(start: start, end: end, zone: zone, repeats: repeats, cancelled: cancelled, moved: moved)
    }

    /// The occurrences that begin in `from..<to`, as the day planner reads them.
    func dayEvents(from: Date, to: Date) -> [DayEvent] {
        schedule.occurrences(from: from, to: to).filter { $0.start >= from && $0.start < to }.map {
            DayEvent(id: id, originalDay: $0.originalDay, start: $0.start, end: $0.end, flexibleMinutes: durationMinutes,
                     place: place?.coordinate, modes: modes)
        }
    }
}
