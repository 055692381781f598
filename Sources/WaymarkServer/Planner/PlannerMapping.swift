import Foundation
import WaymarkAPI
import WaymarkCore

/// Between the Planner's API types and its rows.
enum PlannerMapping {
    /// Ids are stored lower case; anything that is not a UUID names nothing.
    static func id(_ text: String, _ what: String) throws -> String {
        guard UUID(uuidString: text) != nil else { throw Problem.notFound(what) }
        return text.lowercased()
    }

    static func calendar(_ c: CalendarRow) -> Components.Schemas.Calendar {
        .init(id: c.id, name: c.name, colour: c.colour.hex, textColour: c.colour.text.hex, leaveAlerts: c.leaveAlerts)
    }

    static func input(_ b: Components.Schemas.EventInput) throws -> EventService.Input {
        EventService.Input(
            title: b.title, description: b.description, calendarId: b.calendarId, start: b.start, end: b.end, timeZone: b.timeZone,
            durationMinutes: b.durationMinutes,
            repeats: b._repeat.map { ($0.weekdays, $0.interval, $0.until, $0.count) },
            place: b.place.map { ($0.name, $0.latitude, $0.longitude) },
            modes: b.modes.map { $0.compactMap { TravelMode(rawValue: $0.rawValue) } })
    }

    static func mode(_ m: TravelMode) -> Components.Schemas.TravelMode { .init(rawValue: m.rawValue)! }

    static func place(_ p: EventPlace) -> Components.Schemas.EventPlace {
        .init(name: p.name, latitude: p.coordinate.latitude, longitude: p.coordinate.longitude)
    }

    static func event(_ e: PlannerEventRow) -> Components.Schemas.PlannerEvent {
        .init(id: e.id, calendarId: e.calendarId, title: e.title, description: e.description, start: e.start.description,
              end: e.end.description, timeZone: e.zone.identifier, durationMinutes: e.durationMinutes,
              _repeat: e.repeats.map { .init(weekdays: $0.weekdays, interval: $0.interval, until: $0.until?.description, count: $0.count) },
              place: e.place.map(place), modes: e.modes.sorted().map(mode),
              cancelledDays: e.cancelled.sorted().map(\.description),
              movedOccurrences: e.moved.sorted { $0.key < $1.key }.map {
                  .init(day: $0.key.description, start: $0.value.lowerBound.description, end: $0.value.upperBound.description)
              })
    }

    static func warning(_ w: DayPlans.Warning) -> Components.Schemas.PlanWarning {
        .init(eventId: w.eventId, day: w.day.description, title: w.title, message: w.message)
    }

    static func saved(_ e: PlannerEventRow, _ warnings: [DayPlans.Warning]) -> Components.Schemas.EventSaved {
        .init(event: event(e), warnings: warnings.map(warning))
    }

    static func occurrence(_ x: (event: PlannerEventRow, occurrence: Occurrence)) -> Components.Schemas.PlannerOccurrence {
        let (e, o) = x
        return .init(eventId: e.id, day: o.originalDay.description, calendarId: e.calendarId, title: e.title, start: o.start, end: o.end,
                     timeZone: e.zone.identifier, durationMinutes: e.durationMinutes, place: e.place.map(place), moved: o.moved,
                     repeats: e.repeats != nil)
    }

    static func coordinate(_ c: Coordinate) -> Components.Schemas.Coordinate { .init(latitude: c.latitude, longitude: c.longitude) }

    static func plan(_ v: DayPlans.View) -> Components.Schemas.DayPlan {
        .init(day: v.day.description, timeZone: v.zone.identifier, past: v.past, steps: v.steps.map(step), warnings: v.warnings.map(warning),
              travelMinutes: v.travelMinutes, lunchMissed: v.lunchMissed, proven: v.proven)
    }

    static func step(_ s: DayPlans.Step) -> Components.Schemas.PlanStep {
        .init(kind: s.kind == .event ? .event : .lunch, start: s.start, end: s.end, eventId: s.event?.id, day: s.occurrenceDay?.description,
              calendarId: s.event?.calendarId, title: s.event?.title, place: s.event?.place.map(place),
              flexible: s.event == nil ? nil : s.flexible,
              arrival: s.arrival.map { .init(rawValue: $0.rawValue)! }, lateMinutes: s.lateMinutes > 0 ? s.lateMinutes : nil, why: s.why,
              leg: s.leg.map { l in
                  .init(mode: mode(l.mode), depart: l.depart, arrive: l.arrive, minutes: l.minutes, metres: l.metres,
                        from: coordinate(l.from), to: coordinate(l.to),
                        journey: l.journey.map { TransitMapping.journey($0.journey, day: $0.day, from: l.from, to: l.to) },
                        provider: l.provider.map { .init(name: $0.name, url: $0.url) })
              },
              lunchBefore: s.lunchBefore ? true : nil,
              options: s.options.isEmpty ? nil : s.options.map { .init(mode: mode($0.mode), minutes: $0.minutes, metres: $0.metres) },
              refusals: s.refusals.isEmpty ? nil : s.refusals.map { .init(mode: mode($0.mode), reason: $0.reason) })
    }

    /// "HH:MM", or "24:00" for the end of the day.
    static func minute(_ text: String, _ field: String) throws -> Int {
        if text == "24:00" { return 1440 }
        guard let m = WallTime.minute(of: text) else { throw Problem.badRequest("\(field) is a time HH:MM, like 08:30.") }
        return m
    }

    static func preferences(_ p: TravelPreferences) -> Components.Schemas.TravelPreferences {
        .init(ecoMode: p.ecoMode, maxWalkingMetres: p.maxWalkingMetres, maxBikingMetres: p.maxBikingMetres, ownsBike: p.ownsBike,
              bikeSharing: p.bikeSharing, transitFrom: WeeklySchedule.clock(minute: p.transitWindow.from), transitTo: WeeklySchedule.clock(minute: p.transitWindow.to), ownsCar: p.ownsCar,
              carSharing: p.carSharing, rideSharingService: p.rideSharingService,
              lunchFrom: p.lunchWindow.map { WeeklySchedule.clock(minute: $0.from) }, lunchTo: p.lunchWindow.map { WeeklySchedule.clock(minute: $0.to) })
    }

    static func preferences(_ b: Components.Schemas.TravelPreferences) throws -> TravelPreferences {
        var lunch: MinuteWindow?
        switch (b.lunchFrom, b.lunchTo) {
        case (nil, nil): lunch = nil
        case (let f?, let t?): lunch = MinuteWindow(from: try minute(f, "lunchFrom"), to: try minute(t, "lunchTo"))
        default: throw Problem.badRequest("Give both ends of the lunch window, or neither for no lunch.")
        }
        if let s = b.rideSharingService, s.count > 60 { throw Problem.badRequest("The ride-sharing service is a name of 1 to 60 characters.") }
        let service = b.rideSharingService?.trimmingCharacters(in: .whitespaces)
        return TravelPreferences(
            ecoMode: b.ecoMode, maxWalkingMetres: b.maxWalkingMetres, maxBikingMetres: b.maxBikingMetres, ownsBike: b.ownsBike,
            bikeSharing: b.bikeSharing,
            transitWindow: MinuteWindow(from: try minute(b.transitFrom, "transitFrom"), to: try minute(b.transitTo, "transitTo")),
            ownsCar: b.ownsCar, carSharing: b.carSharing, rideSharingService: service?.isEmpty == true ? nil : service, lunchWindow: lunch)
    }

    static func place(_ p: GazetteerPlace) -> Components.Schemas.PlannerPlace {
        .init(name: p.name, kind: .init(rawValue: p.kind.rawValue)!, detail: p.detail, latitude: p.latitude, longitude: p.longitude)
    }
}

extension PlannerMapping {
    static func subscription(_ s: CalendarSubscriptions.Subscription) -> Components.Schemas.CalendarSubscription {
        .init(active: s.active, path: s.token.map { "/v1/calendar-feeds/\($0).ics" }, includeTravel: s.active ? s.includeTravel : nil,
              createdAt: s.createdAt, lastFetchedAt: s.fetchedAt)
    }

    /// Content-Disposition for a download named after a calendar: an ASCII fallback name and the
    /// real one in UTF-8 (RFC 6266), so "Università" arrives as itself.
    static func attachment(_ name: String, ext: String) -> String {
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        return "attachment; filename=\"\(ascii.isEmpty ? "calendar" : ascii).\(ext)\"; filename*=UTF-8''\(encoded).\(ext)"
    }
}
