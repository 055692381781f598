import Foundation

/// A public-transport timetable as a GTFS static feed gives it (PLN-5): what the importer reads
/// and the journey planner's `Timetable` is built from. Times are seconds after the service day's
/// noon minus 12 hours (GTFS's "midnight"), so a trip after midnight runs past 86,400.
public struct TransitFeed: Hashable, Sendable, Codable {
    public var agencies: [Agency]
    public var stops: [Stop]
    public var routes: [Route]
    public var trips: [Trip]
    /// In trip order, then `sequence` order.
    public var stopTimes: [StopTime]
    public var calendars: [ServiceCalendar]
    public var calendarDates: [ServiceException]
    public var frequencies: [Frequency]
    public var transfers: [Transfer]

    public init(agencies: [Agency] = [], stops: [Stop] = [], routes: [Route] = [], trips: [Trip] = [], stopTimes: [StopTime] = [],
                calendars: [ServiceCalendar] = [], calendarDates: [ServiceException] = [], frequencies: [Frequency] = [], transfers: [Transfer] = []) {
        self.agencies = agencies; self.stops = stops; self.routes = routes; self.trips = trips; self.stopTimes = stopTimes
        self.calendars = calendars; self.calendarDates = calendarDates; self.frequencies = frequencies; self.transfers = transfers
    }

    public struct Agency: Hashable, Sendable, Codable {
        public var id: String
        public var name: String
        public var url: String
        public var timeZone: String
        public init(id: String, name: String, url: String, timeZone: String) { self.id = id; self.name = name; self.url = url; self.timeZone = timeZone }
    }

    public struct Stop: Hashable, Sendable, Codable {
        public var id: String
        public var name: String
        public var position: Coordinate
        /// The station a platform belongs to (`parent_station`).
        public var parentStation: String?
        public init(id: String, name: String, position: Coordinate, parentStation: String? = nil) {
            self.id = id; self.name = name; self.position = position; self.parentStation = parentStation
        }
    }

    /// GTFS `route_type`: the basic types and the extended ones by their hundreds.
    public enum Mode: String, Hashable, Sendable, Codable {
        case tram, metro, rail, bus, ferry, cableTram, aerialLift, funicular, trolleybus, monorail
    }

    public struct Route: Hashable, Sendable, Codable {
        public var id: String
        public var agencyId: String?
        public var shortName: String
        public var longName: String
        public var mode: Mode
        /// `RRGGBB`, when the feed gives one.
        public var colour: String?
        public init(id: String, agencyId: String? = nil, shortName: String, longName: String, mode: Mode, colour: String? = nil) {
            self.id = id; self.agencyId = agencyId; self.shortName = shortName; self.longName = longName; self.mode = mode; self.colour = colour
        }
        /// How people call it: "M2", "Tram 33", or the long name when there is no short one.
        public var name: String { shortName.isEmpty ? longName : shortName }
    }

    public struct Trip: Hashable, Sendable, Codable {
        public var id: String
        public var routeId: String
        public var serviceId: String
        public var headsign: String?
        public init(id: String, routeId: String, serviceId: String, headsign: String? = nil) {
            self.id = id; self.routeId = routeId; self.serviceId = serviceId; self.headsign = headsign
        }
    }

    public struct StopTime: Hashable, Sendable, Codable {
        public var tripId: String
        public var sequence: Int
        public var stopId: String
        /// Seconds after the service day's start; GTFS lets only the timepoints carry times, and
        /// the importer fills the others in by distance along the trip.
        public var arrival: Int
        public var departure: Int
        /// `pickup_type` / `drop_off_type` 1: nobody boards or alights here.
        public var noPickup: Bool
        public var noDropOff: Bool
        public init(tripId: String, sequence: Int, stopId: String, arrival: Int, departure: Int, noPickup: Bool = false, noDropOff: Bool = false) {
            self.tripId = tripId; self.sequence = sequence; self.stopId = stopId; self.arrival = arrival; self.departure = departure
            self.noPickup = noPickup; self.noDropOff = noDropOff
        }
    }

    /// A day of service as GTFS writes it (`YYYYMMDD`), without a time zone: the agency's.
    public struct ServiceDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
        public var year: Int
        public var month: Int
        public var day: Int
        public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }
        public static func < (a: Self, b: Self) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
        public var description: String { String(format: "%04d%02d%02d", year, month, day) }
        /// 1 Monday … 7 Sunday.
        public var weekday: Int {
            var c = Calendar(identifier: .gregorian)
            c.timeZone = TimeZone(identifier: "UTC")!
            let date = c.date(from: DateComponents(year: year, month: month, day: day))!
            return (c.component(.weekday, from: date) + 5) % 7 + 1
        }
    }

    public struct ServiceCalendar: Hashable, Sendable, Codable {
        public var serviceId: String
        /// 1 Monday … 7 Sunday.
        public var weekdays: Set<Int>
        public var start: ServiceDate
        public var end: ServiceDate
        public init(serviceId: String, weekdays: Set<Int>, start: ServiceDate, end: ServiceDate) {
            self.serviceId = serviceId; self.weekdays = weekdays; self.start = start; self.end = end
        }
    }

    public struct ServiceException: Hashable, Sendable, Codable {
        public var serviceId: String
        public var date: ServiceDate
        /// `exception_type` 1 (added) or 2 (removed).
        public var added: Bool
        public init(serviceId: String, date: ServiceDate, added: Bool) { self.serviceId = serviceId; self.date = date; self.added = added }
    }

    /// A trip that repeats every `headway` seconds from `start` to before `end`, its stop times
    /// shifted by the same amount (`frequencies.txt`).
    public struct Frequency: Hashable, Sendable, Codable {
        public var tripId: String
        public var start: Int
        public var end: Int
        public var headway: Int
        public var exactTimes: Bool
        public init(tripId: String, start: Int, end: Int, headway: Int, exactTimes: Bool = false) {
            self.tripId = tripId; self.start = start; self.end = end; self.headway = headway; self.exactTimes = exactTimes
        }
    }

    public struct Transfer: Hashable, Sendable, Codable {
        public var fromStopId: String
        public var toStopId: String
        /// `transfer_type` 3: not possible here.
        public var forbidden: Bool
        /// Seconds it takes (`min_transfer_time`, type 2).
        public var minimumSeconds: Int?
        public init(fromStopId: String, toStopId: String, forbidden: Bool = false, minimumSeconds: Int? = nil) {
            self.fromStopId = fromStopId; self.toStopId = toStopId; self.forbidden = forbidden; self.minimumSeconds = minimumSeconds
        }
    }

    /// Whether the service runs on the date, by its calendar and its exceptions.
    public func runs(_ serviceId: String, on date: ServiceDate) -> Bool {
        if let e = calendarDates.first(where: { $0.serviceId == serviceId && $0.date == date }) { return e.added }
        guard let c = calendars.first(where: { $0.serviceId == serviceId }) else { return false }
        return c.start <= date && date <= c.end && c.weekdays.contains(date.weekday)
    }
}
