import Foundation

/// Writing Waymark's events as an iCalendar file (RFC 5545) that calendar apps can import or
/// subscribe to (PLN-10): lines end with CRLF and are folded at 75 octets, each zone used is
/// described by a VTIMEZONE, weekly repeats are RRULEs, cancelled occurrences EXDATEs and
/// moved ones overrides with RECURRENCE-ID. What Waymark read but does not use goes back as it
/// came.
public enum CalendarExport {
    public static let productID = "-//Waymark//Planner//EN"
    /// How long a flexible event takes inside its window; other calendars keep and ignore it.
    public static let flexibleProperty = "X-WAYMARK-FLEXIBLE-MINUTES"

    /// The whole file. `refreshMinutes`, for a subscribed feed, says how often apps should fetch
    /// it again (RFC 7986's REFRESH-INTERVAL, and X-PUBLISHED-TTL, which older apps read).
    public static func write(name: String, events: [CalendarEvent], now: Date, refreshMinutes: Int? = nil) -> String {
        var writer = Writer(stamp: ICalendarDateTime.utc(now).description)
        for event in events { writer.add(event) }
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:\(ICalendarText.escaped(name))",
        ]
        if let refreshMinutes, refreshMinutes > 0 {
            let duration = ICalendarDuration.text(minutes: refreshMinutes)
            lines += ["REFRESH-INTERVAL;VALUE=DURATION:\(duration)", "X-PUBLISHED-TTL:\(duration)"]
        }
        for (id, earliest) in writer.zones.sorted(by: { $0.key < $1.key }) {
            if let zone = TimeZone(identifier: id) { lines += timeZoneLines(zone, from: earliest, now: now) }
        }
        lines += writer.lines
        lines.append("END:VCALENDAR")
        return lines.map { ICalendarText.fold($0) }.joined(separator: "\r\n") + "\r\n"
    }

    /// The lines of the events, and the zones (with the earliest day each is used on) their
    /// times name.
    struct Writer {
        let stamp: String
        var lines: [String] = []
        var zones: [String: LocalDay] = [:]

        mutating func add(_ e: CalendarEvent) {
            lines += ["BEGIN:VEVENT", "UID:\(ICalendarText.escaped(e.uid))", "DTSTAMP:\(stamp)"]
            lines.append(time("DTSTART", e.start, e))
            lines.append(time("DTEND", e.allDay && e.end.minute != 0 ? WallTime(day: e.end.day.adding(days: 1), minute: 0) : e.end, e))
            if let r = e.repeats { lines.append(rule(r, e)) }
            let cancelled = e.cancelled.sorted()
            if !cancelled.isEmpty {
                let values = cancelled.map { value(WallTime(day: $0, minute: e.allDay ? 0 : e.start.minute), e) }
                lines.append(prefix("EXDATE", e) + ":" + values.joined(separator: ","))
            }
            details(e)
            lines.append("END:VEVENT")
            // Only occurrences the series has: a RECURRENCE-ID of any other day would read back as an event of its own.
            let schedule = e.schedule
            for (day, times) in e.moved.sorted(by: { $0.key < $1.key }) where !e.cancelled.contains(day) && schedule.isDue(on: day) {
                lines += ["BEGIN:VEVENT", "UID:\(ICalendarText.escaped(e.uid))", "DTSTAMP:\(stamp)"]
                lines.append(time("RECURRENCE-ID", WallTime(day: day, minute: e.allDay ? 0 : e.start.minute), e))
                var moved = e
                moved.allDay = e.allDay && times.lowerBound.minute == 0 && times.upperBound.minute == 0
                lines.append(time("DTSTART", times.lowerBound, moved))
                lines.append(time("DTEND", times.upperBound, moved))
                details(e)
                lines.append("END:VEVENT")
            }
        }

        private mutating func details(_ e: CalendarEvent) {
            lines.append("SUMMARY:\(ICalendarText.escaped(e.title))")
            if let d = e.description, !d.isEmpty { lines.append("DESCRIPTION:\(ICalendarText.escaped(d))") }
            if let l = e.locationName, !l.isEmpty { lines.append("LOCATION:\(ICalendarText.escaped(l))") }
            if let c = e.coordinate, c.isValid { lines.append("GEO:\(ICalendarValues.geoText(c))") }
            if let f = e.flexibleMinutes { lines.append("\(CalendarExport.flexibleProperty):\(f)") }
            lines += CalendarExport.safeExtra(e.extra)
        }

        /// `NAME;VALUE=DATE`, `NAME;TZID=Europe/Rome`, or `NAME` for UTC.
        private mutating func prefix(_ name: String, _ e: CalendarEvent) -> String {
            if e.allDay { return "\(name);VALUE=DATE" }
            if ICalendarTimeZones.isUTC(e.zone) { return name }
            return "\(name);TZID=\(ICalendarText.parameterValue(e.zone.identifier))"
        }

        private mutating func value(_ w: WallTime, _ e: CalendarEvent) -> String {
            if e.allDay { return ICalendarDateTime(day: w.day).description }
            if !ICalendarTimeZones.isUTC(e.zone) {
                zones[e.zone.identifier] = min(zones[e.zone.identifier] ?? w.day, w.day)
            }
            return ICalendarDateTime(day: w.day, second: w.minute * 60, isUTC: ICalendarTimeZones.isUTC(e.zone)).description
        }

        private mutating func time(_ name: String, _ w: WallTime, _ e: CalendarEvent) -> String {
            prefix(name, e) + ":" + value(w, e)
        }

        /// FREQ=WEEKLY with its days, interval and end. UNTIL is of DTSTART's type: a DATE for an
        /// all-day event, else the last second of the until day on the event's clock, in UTC
        /// (RFC 5545 requires UTC when DTSTART has a TZID).
        private func rule(_ r: WeeklyRepeat, _ e: CalendarEvent) -> String {
            var parts = ["FREQ=WEEKLY"]
            if r.interval != 1 { parts += ["INTERVAL=\(r.interval)", "WKST=MO"] }
            let mondayFirst = r.weekdays.sorted { ($0 + 5) % 7 < ($1 + 5) % 7 }
            parts.append("BYDAY=" + mondayFirst.map { RecurrenceRule.weekdayCodes[$0 - 1] }.joined(separator: ","))
            if let until = r.until {
                if e.allDay {
                    parts.append("UNTIL=\(ICalendarDateTime(day: until))")
                } else {
                    let lastSecond = WallTime(day: until.adding(days: 1), minute: 0).instant(in: e.zone).addingTimeInterval(-1)
                    parts.append("UNTIL=\(ICalendarDateTime.utc(lastSecond))")
                }
            }
            if let count = r.count { parts.append("COUNT=\(count)") }
            return "RRULE:" + parts.joined(separator: ";")
        }
    }

    /// The kept lines that are still content lines, without line breaks, and with their
    /// BEGIN/END lines nesting properly; otherwise only their properties, so an odd `extra`
    /// can never break the file's structure.
    static func safeExtra(_ extra: [String]) -> [String] {
        let lines = extra.map { $0.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "") }
            .filter { ICalendarContent.property($0) != nil }
        var stack: [String] = []
        var balanced = true
        for line in lines {
            guard let p = ICalendarContent.property(line), p.name == "BEGIN" || p.name == "END" else { continue }
            let name = p.value.trimmingCharacters(in: .whitespaces).uppercased()
            if p.name == "BEGIN" {
                stack.append(name)
            } else if stack.popLast() != name {
                balanced = false
                break
            }
        }
        if balanced && stack.isEmpty { return lines }
        return lines.filter { line in
            guard let p = ICalendarContent.property(line) else { return false }
            return p.name != "BEGIN" && p.name != "END"
        }
    }

    /// A VTIMEZONE from Foundation's rules: every change of offset from the start of the year
    /// before `from` to ten years after `now`, each an observance of its own with explicit
    /// DTSTART, offsets and name, so any reader gets the same clock without evaluating rules.
    /// A zone that does not change in that time gets one STANDARD observance.
    static func timeZoneLines(_ zone: TimeZone, from: LocalDay, now: Date) -> [String] {
        let startYear = max(1, from.components.year - 1)
        let start = LocalDay(year: startYear, month: 1, day: 1)!
        let rangeStart = Date(timeIntervalSince1970: TimeInterval(start.number * 86_400))
        let rangeEnd = now.addingTimeInterval(TimeInterval(3_653 * 86_400))
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)", "X-LIC-LOCATION:\(zone.identifier)"]
        var cursor = rangeStart
        var count = 0
        while count < 1_000, let t = zone.nextDaylightSavingTimeTransition(after: cursor), t < rangeEnd {
            let before = zone.secondsFromGMT(for: t.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: t)
            let kind = zone.isDaylightSavingTime(for: t) ? "DAYLIGHT" : "STANDARD"
            lines += observance(kind, localStart: t.addingTimeInterval(TimeInterval(before)), from: before, to: after, name: zone.abbreviation(for: t))
            cursor = t
            count += 1
        }
        if count == 0 {
            let offset = zone.secondsFromGMT(for: rangeStart)
            lines += observance("STANDARD", localStart: rangeStart.addingTimeInterval(TimeInterval(offset)), from: offset, to: offset,
                                name: zone.abbreviation(for: rangeStart))
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    private static func observance(_ kind: String, localStart: Date, from: Int, to: Int, name: String?) -> [String] {
        var local = ICalendarDateTime.utc(localStart)
        local.isUTC = false
        var lines = ["BEGIN:\(kind)", "DTSTART:\(local)", "TZOFFSETFROM:\(ICalendarValues.utcOffsetText(from))",
                     "TZOFFSETTO:\(ICalendarValues.utcOffsetText(to))"]
        if let name, !name.isEmpty { lines.append("TZNAME:\(ICalendarText.escaped(name))") }
        lines.append("END:\(kind)")
        return lines
    }
}
