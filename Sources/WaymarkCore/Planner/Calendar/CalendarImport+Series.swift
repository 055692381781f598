import Foundation

/// What one VEVENT with its repeat became: a weekly series (or the plain event), and single
/// events that each stand for one occurrence the series cannot hold (expanded from a rule
/// Waymark cannot repeat, added by RDATE, or DTSTART off the rule's weekdays). Overrides
/// (RECURRENCE-ID) find their occurrence here.
struct BuiltSeries {
    struct Single {
        /// The start the rule (or RDATE) gave it: what a RECURRENCE-ID names.
        var original: WallTime
        var event: CalendarEvent
    }

    var master: ReadEvent
    var uid: String
    var series: CalendarEvent?
    var singles: [Single] = []

    var events: [CalendarEvent] {
        (series.map { [$0] } ?? []) + singles.sorted { ($0.event.start, $0.event.uid) < ($1.event.start, $1.event.uid) }.map(\.event)
    }

    /// The single a RECURRENCE-ID names: the one due at that time, else the only one due that day.
    func single(matching rid: WallTime) -> Int? {
        if let i = singles.firstIndex(where: { $0.original == rid }) { return i }
        let sameDay = singles.indices.filter { singles[$0].original.day == rid.day }
        return sameDay.count == 1 ? sameDay[0] : nil
    }
}

extension CalendarReader {
    /// Puts series, their occurrences and their overrides together, in file order.
    mutating func assemble(_ read: [ReadEvent]) {
        var built: [String: BuiltSeries] = [:]
        var order: [String] = []
        var firstLine: [String: Int] = [:]
        var notImported: [String: Int] = [:]
        for m in read where m.recurrenceID == nil {
            if let line = firstLine[m.uid] {
                skip(m, "Another event in the file (line \(line)) has the same UID; the first one was kept.")
                continue
            }
            firstLine[m.uid] = m.line
            if m.cancelled {
                skip(m, "Cancelled in the calendar it came from.")
                notImported[m.uid] = m.line
                continue
            }
            if let b = build(m, uid: m.uid) {
                built[m.uid] = b
                order.append(m.uid)
            } else {
                notImported[m.uid] = m.line
            }
        }
        var seen: [String: Int] = [:]
        var orphans: [BuiltSeries] = []
        for o in read {
            guard let rid = o.recurrenceID else { continue }
            let key = "\(o.uid)|\(rid.value)|\(rid.tzid ?? "")"
            if let line = seen[key] {
                skip(o, "Another change to the same occurrence comes earlier in the file (line \(line)).")
                continue
            }
            seen[key] = o.line
            if var b = built[o.uid] {
                if o.thisAndFuture {
                    result.notes.append("\(o.named) changes this and all later occurrences; Waymark changed only the one on \(CalendarWords.day(ridWall(o, in: b.master).day)).")
                }
                apply(o, to: &b)
                built[o.uid] = b
            } else if let line = notImported[o.uid] {
                skip(o, "It changes one occurrence of an event that was not imported (line \(line)).")
            } else if o.cancelled {
                skip(o, "It cancels one occurrence of a repeating event that is not in the file.")
            } else {
                // Its own UID: a second such change to the same series gets a suffix at the end.
                result.notes.append("\(o.named) changes one occurrence of a repeating event that is not in the file; it was added on its own.")
                if let b = build(o, uid: o.uid) { orphans.append(b) }
            }
        }
        result.events = order.flatMap { built[$0]!.events } + orphans.flatMap(\.events)
    }

    mutating func skip(_ e: ReadEvent, _ reason: String) {
        result.skipped.append(.init(line: e.line, uid: e.uidGiven ? e.uid : nil, title: e.given.contains("SUMMARY") ? e.title : nil, reason: reason))
    }

    /// An event and its repeat as Waymark keeps them; nil (with a skip said) when nothing of it
    /// can be kept.
    mutating func build(_ e: ReadEvent, uid: String) -> BuiltSeries? {
        guard produced < CalendarImport.maximumEvents else {
            skip(e, "The file holds more than \(CalendarWords.number(CalendarImport.maximumEvents)) events; Waymark imports at most that many at once.")
            return nil
        }
        var b = BuiltSeries(master: e, uid: uid)
        if let rule = e.rule {
            if rule.isWeekly { buildWeekly(e, rule, into: &b) } else { expand(e, rule, into: &b) }
        } else if !e.exdates.contains(e.start.day) {
            b.singles.append(.init(original: e.start, event: e.event(uid: uid)))
        }
        var starts = Set(b.singles.map(\.event.start))
        var leftOut = 0
        for r in e.rdates where !e.exdates.contains(r.lowerBound.day) && !starts.contains(r.lowerBound) {
            if let s = b.series, r.lowerBound.minute == s.start.minute, s.schedule.isDue(on: r.lowerBound.day) { continue }
            guard produced + b.singles.count + 1 < CalendarImport.maximumEvents else {
                leftOut += 1
                continue
            }
            var event = e.event(uid: "\(uid)#\(Self.stamp(r.lowerBound, allDay: e.allDay))")
            event.start = r.lowerBound
            event.end = r.upperBound
            if let f = event.flexibleMinutes, f > event.minutes { event.flexibleMinutes = nil }
            b.singles.append(.init(original: r.lowerBound, event: event))
            starts.insert(r.lowerBound)
        }
        if leftOut > 0 {
            result.notes.append("\(e.named): \(CalendarWords.count(leftOut, "added date")) (RDATE) \(leftOut == 1 ? "was" : "were") left out, as the file holds more than \(CalendarWords.number(CalendarImport.maximumEvents)) events.")
        }
        if b.series == nil && b.singles.isEmpty {
            skip(e, "All of its occurrences are cancelled (EXDATE).")
            return nil
        }
        if b.series == nil, b.singles.count == 1 { b.singles[0].event.uid = uid }
        produced += (b.series == nil ? 0 : 1) + b.singles.count
        return b
    }

    /// A rule a `WeeklyRepeat` can hold. When DTSTART is not on one of the rule's weekdays, RFC
    /// 5545 still counts it as the first occurrence: it becomes a single event of its own and
    /// the series begins at the rule's next day, with COUNT one less.
    private mutating func buildWeekly(_ e: ReadEvent, _ rule: RecurrenceRule, into b: inout BuiltSeries) {
        let weekdays = rule.byDay.isEmpty ? (rule.frequency == .daily ? Array(1...7) : [e.start.day.weekday]) : rule.byDay.map(\.weekday)
        let interval = rule.frequency == .daily ? 1 : rule.interval
        var count = rule.count
        var first: LocalDay? = e.start.day
        let offRule = !weekdays.contains(e.start.day.weekday)
        if offRule {
            count = count.map { $0 - 1 }
            let next = rule.days(first: e.start.day, last: e.lastDay, through: e.start.day.adding(days: 7 * interval + 7), maximumResults: 2)
            first = next.count == 2 && count != 0 ? next[1] : nil
            result.notes.append("\(e.named) starts on a \(CalendarWords.weekday(e.start.day.weekday)), which is not one of the days it repeats on; as RFC 5545 counts that first occurrence all the same, it was added on its own.")
        }
        if let first, e.lastDay.map({ $0 >= first }) ?? true {
            var repeats = WeeklyRepeat(weekdays: weekdays, interval: interval, until: e.lastDay, count: count)
            // WeeklyRepeat ends by a date or a count up to 1,000, not both: a larger count or
            // both become the date of the last occurrence.
            if let c = count, c > WeeklyRepeat.maximumCount || e.lastDay != nil {
                let last = Self.day(ofOccurrence: c, weekdays: repeats.weekdays, interval: interval, first: first)
                repeats.count = nil
                repeats.until = [last, e.lastDay].compactMap { $0 }.min()
            }
            var series = e.event(uid: b.uid)
            series.start = WallTime(day: first, minute: e.start.minute)
            series.end = series.start.adding(minutes: e.minutes)
            series.repeats = repeats
            series.cancelled = e.exdates.filter { series.schedule.isDue(on: $0) }
            b.series = series
        }
        if offRule, !e.exdates.contains(e.start.day) {
            let uid = b.series == nil ? b.uid : "\(b.uid)#\(Self.stamp(e.start, allDay: e.allDay))"
            b.singles.append(.init(original: e.start, event: e.event(uid: uid)))
        }
    }

    /// The day of the n-th occurrence of a weekly repeat starting on `first`, counted as
    /// `WeeklyRepeat` counts (weeks from Monday); nil past the year 9999.
    static func day(ofOccurrence n: Int, weekdays: [Weekday], interval: Int, first: LocalDay) -> LocalDay? {
        let offsets = weekdays.map { ($0 + 5) % 7 }.sorted()
        guard !offsets.isEmpty, n >= 1 else { return nil }
        let week = first.weekStart
        let inFirstWeek = offsets.filter { $0 >= first.number - week.number }
        let number: Int
        if n <= inFirstWeek.count {
            number = week.number + inFirstWeek[n - 1]
        } else {
            let r = n - inFirstWeek.count - 1
            let weeks = r / offsets.count + 1
            guard weeks <= 600_000 / max(1, interval) else { return nil }
            number = week.number + weeks * 7 * interval + offsets[r % offsets.count]
        }
        return number <= LocalDay(year: 9999, month: 12, day: 31)!.number ? LocalDay(number: number) : nil
    }

    /// A rule Waymark cannot repeat: its occurrences from DTSTART up to two years from now
    /// (the latest `maximumExpanded` of them) become single events.
    private mutating func expand(_ e: ReadEvent, _ rule: RecurrenceRule, into b: inout BuiltSeries) {
        let today = LocalDay(containing: now, timeZone: e.zone)
        let c = today.components
        let year = c.year + CalendarImport.expansionYears
        let horizon = max(e.start.day, LocalDay(year: year, month: c.month, day: min(c.day, LocalDay.daysIn(month: c.month, year: year))) ?? today)
        let all = rule.days(first: e.start.day, last: e.lastDay, through: horizon)
        var days = all.filter { !e.exdates.contains($0) }
        let room = max(0, min(CalendarImport.maximumExpanded, CalendarImport.maximumEvents - produced))
        var dropped = 0
        if days.count > room {
            dropped = days.count - room
            days = Array(days.suffix(room))
        }
        for day in days {
            let start = WallTime(day: day, minute: e.start.minute)
            var event = e.event(uid: "\(b.uid)#\(Self.stamp(start, allDay: e.allDay))")
            event.start = start
            event.end = start.adding(minutes: e.minutes)
            b.singles.append(.init(original: start, event: event))
        }
        guard let last = days.last else { return }
        let described = CalendarWords.rule(rule, first: e.start.day)
        var note = days.count == 1
            ? "\(e.named) repeats \(described), which Waymark cannot repeat; its one occurrence, on \(CalendarWords.day(last)), was added on its own."
            : "\(e.named) repeats \(described), which Waymark cannot repeat; its \(CalendarWords.number(days.count)) occurrences up to \(CalendarWords.day(last)) were added one by one."
        if dropped > 0 { note += " The \(CalendarWords.number(dropped)) before \(CalendarWords.day(days[0])) were left out." }
        let continues = (rule.count.map { $0 > all.count } ?? true) && (e.lastDay.map { $0 > horizon } ?? true)
        if continues { note += " Later ones were not added." }
        result.notes.append(note)
    }

    /// A RECURRENCE-ID on the clock of the series it changes.
    mutating func ridWall(_ o: ReadEvent, in master: ReadEvent) -> WallTime {
        guard let rid = o.recurrenceID else { return o.start }
        if master.allDay {
            let day = rid.value.isDate || (!rid.value.isUTC && rid.tzid == nil) ? rid.value.day : wall(rid.value, tzid: rid.tzid, in: master.zone).day
            return WallTime(day: day, minute: 0)
        }
        if rid.value.isDate { return WallTime(day: rid.value.day, minute: master.start.minute) }
        return wall(rid.value, tzid: rid.tzid, in: master.zone)
    }

    /// Applies one override to its series: a cancel, a move of the same event, or (when its
    /// details differ) the occurrence cancelled in the series and added as an event of its own.
    private mutating func apply(_ override: ReadEvent, to b: inout BuiltSeries) {
        let m = b.master
        var o = override
        if !o.given.contains("SUMMARY") { o.title = m.title }
        if !o.given.contains("DESCRIPTION") { o.description = m.description }
        if !o.given.contains("LOCATION") { o.location = m.location }
        if !o.given.contains("GEO") { o.coordinate = m.coordinate }
        let rid = ridWall(o, in: m)
        let day = rid.day
        let sameZone = o.zone.identifier == m.zone.identifier
        let newStart = sameZone ? o.start : WallTime(o.start.instant(in: o.zone), in: m.zone)
        let newEnd = sameZone ? o.end : WallTime(o.end.instant(in: o.zone), in: m.zone)
        let minutes = newStart.minutes(to: newEnd)
        if o.cancelled {
            if var s = b.series, s.schedule.isDue(on: day) {
                s.cancelled.insert(day)
                s.moved[day] = nil
                b.series = s
            } else if let i = b.single(matching: rid) {
                b.singles.remove(at: i)
            } else {
                result.notes.append("\(o.named) cancels an occurrence on \(CalendarWords.day(day)) that its series does not have; it was passed over.")
            }
            return
        }
        let same = o.title == m.title && o.description == m.description && o.location == m.location && o.coordinate == m.coordinate
            && o.allDay == m.allDay
        let fits = minutes > 0 && minutes <= 1440
        if var s = b.series, s.schedule.isDue(on: day) {
            if same, fits, (s.flexibleMinutes ?? 0) <= minutes {
                let original = WallTime(day: day, minute: s.start.minute)
                s.moved[day] = newStart == original && minutes == s.minutes ? nil : newStart...newEnd
                s.cancelled.remove(day)
            } else {
                s.cancelled.insert(day)
                s.moved[day] = nil
                b.singles.append(.init(original: rid, event: o.event(uid: "\(b.uid)#\(Self.stamp(rid, allDay: m.allDay))")))
            }
            b.series = s
        } else if let i = b.single(matching: rid) {
            if same, fits {
                b.singles[i].event.start = newStart
                b.singles[i].event.end = newEnd
                if let f = b.singles[i].event.flexibleMinutes, f > minutes { b.singles[i].event.flexibleMinutes = nil }
            } else {
                b.singles[i].event = o.event(uid: b.singles[i].event.uid)
            }
        } else {
            result.notes.append("\(o.named) changes an occurrence on \(CalendarWords.day(day)) that its series does not have; it was added on its own.")
            b.singles.append(.init(original: rid, event: o.event(uid: "\(b.uid)#\(Self.stamp(rid, allDay: m.allDay))")))
        }
    }

    /// `20261127T0900` (or `20261127` for an all-day event): the suffix of an occurrence's UID.
    static func stamp(_ w: WallTime, allDay: Bool) -> String {
        let c = w.day.components
        let date = String(format: "%04d%02d%02d", c.year, c.month, c.day)
        return allDay ? date : date + String(format: "T%02d%02d", w.minute / 60, w.minute % 60)
    }
}
