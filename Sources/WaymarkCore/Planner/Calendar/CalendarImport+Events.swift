import Foundation

/// One VEVENT as read, before series and their overrides are put together.
struct ReadEvent {
    var line: Int
    var uid: String
    /// False when the UID was made up (the VEVENT had none).
    var uidGiven: Bool
    var title: String
    var description: String?
    var location: String?
    var coordinate: Coordinate?
    /// Which of the details the VEVENT gave itself: an override that leaves one out keeps its
    /// series' own.
    var given: Set<String>
    var flexible: Int?
    var start: WallTime
    var end: WallTime
    var zone: TimeZone
    var allDay: Bool
    /// DTSTART's second of the day, as written (for BYHOUR/BYMINUTE/BYSECOND that repeat it).
    var startSecond: Int
    var rule: RecurrenceRule?
    /// UNTIL as the last day an occurrence may begin on, on the event's wall clock.
    var lastDay: LocalDay?
    var exdates: Set<LocalDay>
    /// RDATEs as wall times in the event's zone.
    var rdates: [ClosedRange<WallTime>]
    var recurrenceID: (value: ICalendarDateTime, tzid: String?)?
    var thisAndFuture: Bool
    var cancelled: Bool
    var extra: [String]

    var minutes: Int { start.minutes(to: end) }

    func event(uid: String) -> CalendarEvent {
        CalendarEvent(uid: uid, title: title, description: description, locationName: location, coordinate: coordinate,
                      start: start, end: end, zone: zone, allDay: allDay, flexibleMinutes: flexible, extra: extra, line: line)
    }

    /// "“Weekly review” (line 12)": how notes name an event.
    var named: String { "“\(title)” (line \(line))" }
}

/// A VEVENT that cannot be imported, as the failure of reading it.
struct SkippedEvent: Error {
    var skip: CalendarImport.Skip
}

extension CalendarReader {
    /// Properties Waymark reads (or writes itself, as DTSTAMP); the rest go to `extra`.
    static let readProperties: Set<String> = [
        "UID", "DTSTAMP", "DTSTART", "DTEND", "DURATION", "SUMMARY", "DESCRIPTION", "LOCATION", "GEO", "RRULE", "EXRULE",
        "RDATE", "EXDATE", "RECURRENCE-ID", CalendarExport.flexibleProperty,
    ]

    /// Reads one VEVENT, or says why it cannot be imported.
    mutating func readEvent(_ c: ICalendarComponent) -> Result<ReadEvent, SkippedEvent> {
        let uidText = c.property("UID").map { ICalendarText.unescaped($0.value).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let uid = uidText.isEmpty ? Self.generatedUID(c) : uidText
        var given: Set<String> = []
        var title = CalendarImport.untitled
        if let summary = c.property("SUMMARY") {
            let text = ICalendarText.unescaped(summary.value).replacingOccurrences(of: "\r\n", with: " ")
                .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty {
                title = text
                given.insert("SUMMARY")
            }
        }
        func skip(_ reason: String) -> Result<ReadEvent, SkippedEvent> {
            .failure(SkippedEvent(skip: .init(line: c.line, uid: uidText.isEmpty ? nil : uidText, title: given.contains("SUMMARY") ? title : nil, reason: reason)))
        }
        let status = c.property("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased()

        // RECURRENCE-ID: an override of one occurrence.
        var recurrenceID: (ICalendarDateTime, String?)?
        var thisAndFuture = false
        if let rid = c.property("RECURRENCE-ID") {
            guard let value = ICalendarDateTime(rid.value) else { return skip("Its RECURRENCE-ID “\(Self.shown(rid.value))” is not a date or a time.") }
            recurrenceID = (value, rid.parameter("TZID"))
            thisAndFuture = rid.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        }

        // Start, and with it the zone.
        guard let dtstart = c.property("DTSTART") else { return skip("It has no start (DTSTART).") }
        guard let startValue = ICalendarDateTime(dtstart.value) else {
            return skip("Its start “\(Self.shown(dtstart.value))” is not a date or a time.")
        }
        let allDay = startValue.isDate
        let zone: TimeZone
        if allDay || (!startValue.isUTC && dtstart.parameter("TZID") == nil) {
            zone = defaultZone
            if !allDay { say("Times without a time zone were read in \(defaultZone.identifier).") }
        } else if startValue.isUTC {
            zone = ICalendarTimeZones.utc
        } else {
            switch resolver.resolve(dtstart.parameter("TZID")!, year: startValue.day.components.year) {
            case .zone(let z, let note):
                zone = z
                if let note { say(note) }
            case .unknown(let reason):
                return skip(reason)
            }
        }
        if (startValue.second ?? 0) % 60 != 0 { say("Seconds were dropped from times; Waymark keeps minutes.") }
        let start = startValue.wallTime

        // End: DTEND, or DURATION, or the RFC's default.
        var end: WallTime
        var untimed = false
        if allDay {
            var days = 1
            if let dtend = c.property("DTEND") {
                guard let value = ICalendarDateTime(dtend.value) else { return skip("Its end “\(Self.shown(dtend.value))” is not a date or a time.") }
                days = value.day.number - startValue.day.number + ((value.second ?? 0) > 0 ? 1 : 0)
            } else if let duration = c.property("DURATION") {
                guard let d = ICalendarDuration(duration.value) else { return skip("Its length “\(Self.shown(duration.value))” is not a duration.") }
                days = d.totalSeconds < 0 ? -1 : max(1, (d.totalSeconds + 86_399) / 86_400)
            }
            if days < 0 { return skip("It ends before it starts.") }
            if days > 1 { return skip("Lasts \(CalendarWords.count(days, "day")); Waymark's events last at most 24 hours.") }
            end = WallTime(day: start.day.adding(days: 1), minute: 0)
        } else {
            if let dtend = c.property("DTEND") {
                guard let value = ICalendarDateTime(dtend.value) else { return skip("Its end “\(Self.shown(dtend.value))” is not a date or a time.") }
                end = wall(value, tzid: dtend.parameter("TZID"), in: zone)
            } else if let duration = c.property("DURATION") {
                guard let d = ICalendarDuration(duration.value) else { return skip("Its length “\(Self.shown(duration.value))” is not a duration.") }
                let nominal = start.adding(minutes: d.days * 1440)
                end = WallTime(nominal.instant(in: zone).addingTimeInterval(TimeInterval(d.seconds)), in: zone)
            } else {
                end = start
            }
            let minutes = start.minutes(to: end)
            if minutes < 0 { return skip("It ends before it starts.") }
            if minutes > 1440 { return skip("Lasts \(CalendarWords.length(minutes: minutes)); Waymark's events last at most 24 hours.") }
            if minutes == 0 {
                untimed = true
                end = start.adding(minutes: CalendarImport.untimedMinutes)
            }
        }

        var event = ReadEvent(line: c.line, uid: uid, uidGiven: !uidText.isEmpty, title: title, given: given, start: start, end: end, zone: zone, allDay: allDay,
                              startSecond: startValue.second ?? 0, exdates: [], rdates: [], recurrenceID: recurrenceID,
                              thisAndFuture: thisAndFuture, cancelled: status == "CANCELLED", extra: [])
        if untimed {
            result.notes.append("\(event.named) has no end, so it takes no time; it was given \(CalendarImport.untimedMinutes) minutes.")
        }
        if event.title.count > CalendarImport.titleLimit {
            event.title = String(event.title.prefix(CalendarImport.titleLimit - 1)) + "…"
            result.notes.append("\(event.named): the title was shortened to \(CalendarImport.titleLimit) characters.")
        }
        if let d = c.property("DESCRIPTION") {
            let text = ICalendarText.unescaped(d.value).replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            given.insert("DESCRIPTION")
            if text.count > CalendarImport.descriptionLimit {
                event.description = String(text.prefix(CalendarImport.descriptionLimit - 1)) + "…"
                result.notes.append("\(event.named): the description was shortened to \(CalendarWords.number(CalendarImport.descriptionLimit)) characters.")
            } else {
                event.description = text.isEmpty ? nil : text
            }
        }
        if let l = c.property("LOCATION") {
            let text = ICalendarText.unescaped(l.value).replacingOccurrences(of: "\r\n", with: ", ")
                .replacingOccurrences(of: "\n", with: ", ").trimmingCharacters(in: .whitespacesAndNewlines)
            given.insert("LOCATION")
            if text.count > CalendarImport.locationLimit {
                event.location = String(text.prefix(CalendarImport.locationLimit - 1)) + "…"
                result.notes.append("\(event.named): the place's name was shortened to \(CalendarImport.locationLimit) characters.")
            } else {
                event.location = text.isEmpty ? nil : text
            }
        }
        if let g = c.property("GEO") {
            given.insert("GEO")
            event.coordinate = ICalendarValues.coordinate(g.value)
            if event.coordinate == nil { result.notes.append("\(event.named): its position “\(Self.shown(g.value))” is not one; it was left out.") }
        }
        event.given = given
        if let f = c.property(CalendarExport.flexibleProperty) {
            if let n = Int(f.value.trimmingCharacters(in: .whitespaces)), (5...1440).contains(n), n <= event.minutes {
                event.flexible = n
            } else {
                result.notes.append("\(event.named): its flexible length “\(Self.shown(f.value))” does not fit its window; it was read as a fixed event.")
            }
        }

        // Repeat rule.
        let rules = c.properties("RRULE")
        if rules.count > 1 { return skip("It has \(rules.count) repeat rules, which Waymark cannot combine.") }
        if c.property("EXRULE") != nil { return skip("It leaves out occurrences by a rule (EXRULE), which Waymark cannot follow.") }
        if let r = rules.first {
            let rule: RecurrenceRule
            do { rule = try RecurrenceRule(r.value) } catch { return skip("Its repeat rule “\(Self.shown(r.value))” cannot be read: \(error.message)") }
            if let reason = rule.unsupportedReason(startSecond: event.startSecond) { return skip(reason) }
            event.rule = rule
            if let until = rule.until { event.lastDay = lastDay(until, of: event) }
        }

        // Cancelled (EXDATE) and added (RDATE) occurrences.
        for p in c.properties("EXDATE") {
            for text in ICalendarText.splitList(p.value) where !text.trimmingCharacters(in: .whitespaces).isEmpty {
                guard let value = ICalendarDateTime(text) else {
                    result.notes.append("\(event.named): the cancelled date “\(Self.shown(text))” is not a date; it was passed over.")
                    continue
                }
                event.exdates.insert(allDay && !value.isDate && !value.isUTC && p.parameter("TZID") == nil
                                     ? value.day : wall(value, tzid: p.parameter("TZID"), in: zone).day)
            }
        }
        for p in c.properties("RDATE") {
            for text in ICalendarText.splitList(p.value) where !text.trimmingCharacters(in: .whitespaces).isEmpty {
                if let added = rdate(text, tzid: p.parameter("TZID"), type: p.parameter("VALUE")?.uppercased(), of: event) {
                    event.rdates.append(added)
                } else {
                    result.notes.append("\(event.named): the added date “\(Self.shown(text))” is not a date, time or period Waymark can use; it was passed over.")
                }
            }
        }

        // What Waymark does not read, kept to be written back.
        var extra: [String] = []
        for p in c.properties where !Self.readProperties.contains(p.name) && p.parameter("TZID") == nil {
            if p.name == "STATUS", status == "CANCELLED" { continue }
            extra.append(p.raw)
        }
        extra += c.components.flatMap(\.contentLines)
        event.extra = extra
        return .success(event)
    }

    /// The wall time of a value in `zone`: a DATE is its midnight, a UTC or zoned value is
    /// moved to `zone`'s clock, and a floating one is read on it. A TZID that cannot be
    /// resolved is read as `zone` too.
    mutating func wall(_ value: ICalendarDateTime, tzid: String?, in zone: TimeZone) -> WallTime {
        if value.isDate { return WallTime(day: value.day, minute: 0) }
        if value.isUTC { return WallTime(value.instant(in: ICalendarTimeZones.utc), in: zone) }
        if let tzid, case .zone(let other, _) = resolver.resolve(tzid, year: value.day.components.year), other.identifier != zone.identifier {
            return WallTime(value.instant(in: other), in: zone)
        }
        return value.wallTime
    }

    /// UNTIL as the last day an occurrence may begin on, on the event's clock. For an all-day
    /// event the date as written counts (writers put `T235959Z` after a date to mean "that
    /// day"); for a timed one, the day of UNTIL in the event's zone, or the day before when
    /// UNTIL comes before that day's start time.
    mutating func lastDay(_ until: ICalendarDateTime, of e: ReadEvent) -> LocalDay {
        if until.isDate || e.allDay { return until.day }
        let w = wall(until, tzid: nil, in: e.zone)
        return w.minute >= e.start.minute ? w.day : w.day.adding(days: -1)
    }

    /// One RDATE value as an occurrence's wall times: a PERIOD keeps its own length, a DATE or
    /// DATE-TIME the event's. Nil for anything else (VALUE=TIME, a period of dates, …) or an
    /// occurrence Waymark could not keep (longer than 24 hours).
    mutating func rdate(_ text: String, tzid: String?, type: String?, of e: ReadEvent) -> ClosedRange<WallTime>? {
        if type == "PERIOD" || text.contains("/") {
            guard let period = ICalendarPeriod(text) else { return nil }
            let start = e.allDay ? WallTime(day: period.start.day, minute: 0) : wall(period.start, tzid: tzid, in: e.zone)
            let end: WallTime
            switch period.length {
            case .end(let value): end = e.allDay ? WallTime(day: value.day, minute: 0) : wall(value, tzid: tzid, in: e.zone)
            case .duration(let d):
                end = WallTime(start.adding(minutes: d.days * 1440).instant(in: e.zone).addingTimeInterval(TimeInterval(d.seconds)), in: e.zone)
            }
            if e.allDay { return WallTime(day: start.day, minute: 0)...WallTime(day: start.day.adding(days: 1), minute: 0) }
            let minutes = start.minutes(to: end)
            return minutes > 0 && minutes <= 1440 ? start...end : nil
        }
        guard type == nil || type == "DATE" || type == "DATE-TIME", let value = ICalendarDateTime(text) else { return nil }
        let start: WallTime
        if e.allDay {
            start = WallTime(day: value.isDate || (!value.isUTC && tzid == nil) ? value.day : wall(value, tzid: tzid, in: e.zone).day, minute: 0)
        } else if value.isDate {
            start = WallTime(day: value.day, minute: e.start.minute)
        } else {
            start = wall(value, tzid: tzid, in: e.zone)
        }
        return start...start.adding(minutes: e.minutes)
    }

    /// A UID for an event that has none, the same for the same text on every import (FNV-1a of
    /// its lines), so importing a file twice finds the same events.
    static func generatedUID(_ c: ICalendarComponent) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in c.contentLines.joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(format: "%016llx@import.waymark", hash)
    }

    /// A value as shown inside a reason: at most 60 characters, control characters as "?".
    static func shown(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return clean.count > 60 ? String(clean.prefix(59)) + "…" : clean
    }
}
