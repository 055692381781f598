import Foundation

/// An RRULE (RFC 5545, 3.3.10) and a small expander of its days. Waymark keeps repeats as a
/// `WeeklyRepeat`; a rule that is more than that (monthly, yearly, every other day, …) is
/// expanded here into the days it gives, so the import can add them one by one.
///
/// Every occurrence of an event begins at DTSTART's time of day, so the expander works on days
/// only; rules that make several times of day (BYHOUR, BYMINUTE, BYSECOND with other values,
/// or a frequency under a day) are refused with a reason by `unsupportedReason`.
public struct RecurrenceRule: Hashable, Sendable {
    public enum Frequency: String, Hashable, Sendable, CaseIterable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY"
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday, with an ordinal for "the 2nd Tuesday" (2TU) or "the last
    /// Friday" (-1FR) of the month or year.
    public struct DayOfWeek: Hashable, Sendable {
        public var ordinal: Int?
        /// 1 = Sunday … 7 = Saturday.
        public var weekday: Weekday

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// Why a rule cannot be read, in words a person understands.
    public struct Problem: Error, Hashable, Sendable {
        public var message: String
    }

    public var frequency: Frequency
    public var interval: Int
    public var until: ICalendarDateTime?
    public var count: Int?
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [DayOfWeek] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPos: [Int] = []
    /// The day weeks start on (WKST); Monday unless the rule says otherwise.
    public var weekStart: Weekday = 2
    /// RSCALE (RFC 7529): a calendar other than the Gregorian one, if named.
    public var calendarScale: String?
    /// SKIP (RFC 7529): what to do with a day a month lacks.
    public var skip: String?

    public init(frequency: Frequency, interval: Int = 1, until: ICalendarDateTime? = nil, count: Int? = nil) {
        self.frequency = frequency
        self.interval = interval
        self.until = until
        self.count = count
    }

    /// The two-letter weekday codes, in `Weekday` order (1 = Sunday).
    public static let weekdayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Reads `FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=…`. Names and values are case-insensitive and
    /// stray spaces and empty parts are forgiven; an unknown part or a value out of range is a
    /// problem (a rule only half understood would give wrong days).
    public init(_ text: String) throws(Problem) {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        // `signed`: negative values count from the end (of the month, year or set).
        func numbers(_ v: String, _ range: ClosedRange<Int>, _ what: String, signed: Bool = false) throws(Problem) -> [Int] {
            var out: [Int] = []
            for part in v.split(separator: ",") {
                let t = part.trimmingCharacters(in: .whitespaces)
                guard let n = Int(t.hasPrefix("+") ? String(t.dropFirst()) : t), range.contains(signed ? Swift.abs(n) : n)
                else { throw Problem(message: "\(what) “\(t)” is out of range.") }
                out.append(n)
            }
            guard !out.isEmpty else { throw Problem(message: "\(what) has no values.") }
            return out
        }
        for part in text.split(separator: ";") {
            let piece = part.trimmingCharacters(in: .whitespaces)
            if piece.isEmpty { continue }
            let kv = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2 else { throw Problem(message: "“\(piece)” is not NAME=VALUE.") }
            let value = kv[1].uppercased().replacingOccurrences(of: " ", with: "")
            switch kv[0].uppercased() {
            case "FREQ":
                guard let f = Frequency(rawValue: value) else { throw Problem(message: "“\(kv[1])” is not a frequency.") }
                frequency = f
            case "INTERVAL":
                guard let n = Int(value), (1...1_000_000).contains(n) else { throw Problem(message: "INTERVAL “\(kv[1])” is not a number from 1 to 1,000,000.") }
                rule.interval = n
            case "COUNT":
                guard let n = Int(value), n >= 1 else { throw Problem(message: "COUNT “\(kv[1])” is not a positive number.") }
                rule.count = n
            case "UNTIL":
                guard let d = ICalendarDateTime(value) else { throw Problem(message: "UNTIL “\(kv[1])” is not a date or time.") }
                rule.until = d
            case "BYSECOND": rule.bySecond = try numbers(value, 0...60, "BYSECOND")
            case "BYMINUTE": rule.byMinute = try numbers(value, 0...59, "BYMINUTE")
            case "BYHOUR": rule.byHour = try numbers(value, 0...23, "BYHOUR")
            case "BYMONTHDAY": rule.byMonthDay = try numbers(value, 1...31, "BYMONTHDAY", signed: true)
            case "BYYEARDAY": rule.byYearDay = try numbers(value, 1...366, "BYYEARDAY", signed: true)
            case "BYWEEKNO": rule.byWeekNo = try numbers(value, 1...53, "BYWEEKNO", signed: true)
            case "BYSETPOS": rule.bySetPos = try numbers(value, 1...366, "BYSETPOS", signed: true)
            case "BYMONTH": rule.byMonth = try numbers(value, 1...12, "BYMONTH")
            case "BYDAY":
                for item in value.split(separator: ",") {
                    guard let code = RecurrenceRule.weekdayCodes.firstIndex(of: String(item.suffix(2))) else {
                        throw Problem(message: "BYDAY “\(item)” is not a day of the week.")
                    }
                    let prefix = item.dropLast(2)
                    var ordinal: Int?
                    if !prefix.isEmpty {
                        guard let n = Int(prefix.hasPrefix("+") ? String(prefix.dropFirst()) : String(prefix)), n != 0, Swift.abs(n) <= 53 else {
                            throw Problem(message: "BYDAY “\(item)” is not a day of the week.")
                        }
                        ordinal = n
                    }
                    rule.byDay.append(DayOfWeek(code + 1, ordinal: ordinal))
                }
                guard !rule.byDay.isEmpty else { throw Problem(message: "BYDAY has no days.") }
            case "WKST":
                guard let code = RecurrenceRule.weekdayCodes.firstIndex(of: value) else { throw Problem(message: "WKST “\(kv[1])” is not a day of the week.") }
                rule.weekStart = code + 1
            case "RSCALE": rule.calendarScale = value
            case "SKIP": rule.skip = value
            default:
                throw Problem(message: "“\(kv[0])” is not a part of a repeat rule Waymark knows.")
            }
        }
        guard let frequency else { throw Problem(message: "It has no FREQ.") }
        rule.frequency = frequency
        self = rule
    }

    /// The rule as written in a file, parts in the RFC's order.
    public var text: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if let calendarScale { parts.insert("RSCALE=\(calendarScale)", at: 0) }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if let until { parts.append("UNTIL=\(until)") }
        if let count { parts.append("COUNT=\(count)") }
        func list(_ name: String, _ values: [Int]) { if !values.isEmpty { parts.append("\(name)=" + values.map(String.init).joined(separator: ",")) } }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty {
            parts.append("BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + Self.weekdayCodes[$0.weekday - 1] }.joined(separator: ","))
        }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if weekStart != 2 { parts.append("WKST=\(Self.weekdayCodes[weekStart - 1])") }
        if let skip { parts.append("SKIP=\(skip)") }
        return parts.joined(separator: ";")
    }

    /// Why Waymark cannot honour the rule for an event starting at `startSecond` of its day, or
    /// nil. BYHOUR/BYMINUTE/BYSECOND that only repeat DTSTART's own time change nothing and are
    /// accepted.
    public func unsupportedReason(startSecond: Int) -> String? {
        if let calendarScale, calendarScale != "GREGORIAN" {
            return "It repeats by the \(calendarScale.capitalized) calendar, which Waymark cannot follow."
        }
        if let skip, skip != "OMIT" {
            return "It repeats with SKIP=\(skip) (moving a date a month lacks), which Waymark cannot follow."
        }
        switch frequency {
        case .secondly: return "It repeats every second, which Waymark cannot do."
        case .minutely: return "It repeats every minute, which Waymark cannot do."
        case .hourly: return "It repeats every hour, which Waymark cannot do."
        default: break
        }
        if byHour.contains(where: { $0 != startSecond / 3600 }) || byMinute.contains(where: { $0 != startSecond / 60 % 60 })
            || bySecond.contains(where: { $0 != startSecond % 60 }) {
            return "It repeats at several times of the day (BYHOUR/BYMINUTE/BYSECOND), which Waymark cannot do."
        }
        if !byWeekNo.isEmpty { return "It repeats in numbered weeks of the year (BYWEEKNO), which Waymark cannot do." }
        if !byYearDay.isEmpty { return "It repeats on numbered days of the year (BYYEARDAY), which Waymark cannot do." }
        if (frequency == .daily || frequency == .weekly), byDay.contains(where: { $0.ordinal != nil }) {
            return "Its rule “\(text)” numbers weekdays (like 2TU) in a daily or weekly repeat, which RFC 5545 does not allow."
        }
        if frequency == .weekly, !byMonthDay.isEmpty {
            return "Its rule “\(text)” gives days of the month in a weekly repeat, which RFC 5545 does not allow."
        }
        return nil
    }

    /// Whether a `WeeklyRepeat` says the same: weekly on plain weekdays (or daily, every day or
    /// on some weekdays), nothing else narrowing it, at most 52 weeks apart, and weeks starting
    /// on Monday unless that cannot matter (every week, or one day a week).
    public var isWeekly: Bool {
        let plainDays = byDay.allSatisfy { $0.ordinal == nil }
        let narrowed = !byMonth.isEmpty || !byMonthDay.isEmpty || !bySetPos.isEmpty || !byYearDay.isEmpty || !byWeekNo.isEmpty
        guard plainDays, !narrowed else { return false }
        switch frequency {
        case .daily: return interval == 1
        case .weekly: return interval <= WeeklyRepeat.maximumInterval && (weekStart == 2 || interval == 1 || Set(byDay.map(\.weekday)).count <= 1)
        default: return false
        }
    }

    /// The days occurrences begin on: `first` (DTSTART's day, which RFC 5545 always counts as
    /// the first occurrence), then the rule's days after it, through `through` and never past
    /// `last` (UNTIL, already turned into the last day by the caller), at most COUNT in all and
    /// at most `maximumResults`. At most `maximumPeriods` periods are walked, so a rule that
    /// matches nothing (BYMONTHDAY=30;BYMONTH=2) cannot loop for long.
    public func days(first: LocalDay, last: LocalDay? = nil, through: LocalDay,
                     maximumResults: Int = .max, maximumPeriods: Int = 200_000) -> [LocalDay] {
        let end = min(through, last ?? through)
        guard end >= first, maximumResults > 0 else { return [] }
        var out = [first]
        let limit = min(count ?? .max, maximumResults)
        let start = first.components
        let firstMonth = start.year * 12 + start.month - 1
        let firstWeek = first.adding(days: -((first.weekday - weekStart + 7) % 7))
        for k in 0..<maximumPeriods {
            let step = k * max(1, interval)
            let periodStart: LocalDay
            var set: [LocalDay]
            switch frequency {
            case .yearly:
                let year = start.year + step
                guard year <= 9999, let s = LocalDay(year: year, month: 1, day: 1) else { return out }
                periodStart = s
                set = yearDays(year, start)
            case .monthly:
                let index = firstMonth + step
                let (year, month) = (index / 12, index % 12 + 1)
                guard year <= 9999, let s = LocalDay(year: year, month: month, day: 1) else { return out }
                periodStart = s
                set = byMonth.isEmpty || byMonth.contains(month) ? monthDays(year, month, start) : []
            case .weekly:
                periodStart = firstWeek.adding(days: 7 * step)
                set = weekDays(periodStart, first)
            default:
                periodStart = first.adding(days: step)
                set = dayMatches(periodStart) ? [periodStart] : []
            }
            if periodStart > end { break }
            if set.count > 1 { set = positions(Array(Set(set)).sorted()) } else if !bySetPos.isEmpty { set = positions(set) }
            for day in set where day > first {
                if day > end { return out }
                out.append(day)
                if out.count >= limit { return out }
            }
        }
        return out
    }

    // MARK: Days of one period

    private func yearDays(_ year: Int, _ start: (year: Int, month: Int, day: Int)) -> [LocalDay] {
        if byMonthDay.isEmpty && byDay.isEmpty {
            let months = byMonth.isEmpty ? [start.month] : byMonth
            return months.compactMap { LocalDay(year: year, month: $0, day: start.day) }
        }
        let months = byMonth.isEmpty ? Array(1...12) : byMonth
        if !byMonthDay.isEmpty {
            let days = months.flatMap { monthDayList(year, $0) }
            return byDay.isEmpty ? days : days.filter { matchesByDay($0, inMonth: !byMonth.isEmpty) }
        }
        if !byMonth.isEmpty {
            return months.flatMap { m in byDay.flatMap { weekdays($0, from: LocalDay(year: year, month: m, day: 1)!, to: Self.monthEnd(year, m)) } }
        }
        return byDay.flatMap { weekdays($0, from: LocalDay(year: year, month: 1, day: 1)!, to: LocalDay(year: year, month: 12, day: 31)!) }
    }

    private func monthDays(_ year: Int, _ month: Int, _ start: (year: Int, month: Int, day: Int)) -> [LocalDay] {
        if byMonthDay.isEmpty && byDay.isEmpty {
            return LocalDay(year: year, month: month, day: start.day).map { [$0] } ?? []
        }
        if !byMonthDay.isEmpty {
            let days = monthDayList(year, month)
            return byDay.isEmpty ? days : days.filter { matchesByDay($0, inMonth: true) }
        }
        return byDay.flatMap { weekdays($0, from: LocalDay(year: year, month: month, day: 1)!, to: Self.monthEnd(year, month)) }
    }

    private func weekDays(_ weekStart: LocalDay, _ first: LocalDay) -> [LocalDay] {
        let wanted = byDay.isEmpty ? [first.weekday] : byDay.map(\.weekday)
        return (0..<7).map { weekStart.adding(days: $0) }.filter { wanted.contains($0.weekday) && inMonths($0) }
    }

    private func dayMatches(_ day: LocalDay) -> Bool {
        guard inMonths(day) else { return false }
        if !byMonthDay.isEmpty {
            let c = day.components
            guard monthDayList(c.year, c.month).contains(day) else { return false }
        }
        return byDay.isEmpty || byDay.contains { $0.weekday == day.weekday }
    }

    private func inMonths(_ day: LocalDay) -> Bool { byMonth.isEmpty || byMonth.contains(day.components.month) }

    /// BYMONTHDAY in a month: negative counts from the end; days the month lacks are left out.
    private func monthDayList(_ year: Int, _ month: Int) -> [LocalDay] {
        let length = LocalDay.daysIn(month: month, year: year)
        return byMonthDay.compactMap { n in
            let d = n > 0 ? n : length + 1 + n
            return (1...length).contains(d) ? LocalDay(year: year, month: month, day: d) : nil
        }
    }

    /// A BYDAY entry used to narrow days already chosen (with BYMONTHDAY): the weekday, and
    /// for an ordinal, its place within the month (or the year).
    private func matchesByDay(_ day: LocalDay, inMonth: Bool) -> Bool {
        byDay.contains { entry in
            guard entry.weekday == day.weekday else { return false }
            guard entry.ordinal != nil else { return true }
            let c = day.components
            let from = LocalDay(year: c.year, month: inMonth ? c.month : 1, day: 1)!
            let to = inMonth ? Self.monthEnd(c.year, c.month) : LocalDay(year: c.year, month: 12, day: 31)!
            return weekdays(entry, from: from, to: to).contains(day)
        }
    }

    /// The days of `entry`'s weekday in `from`…`to`: all of them, or the n-th (from the end
    /// when negative).
    private func weekdays(_ entry: DayOfWeek, from: LocalDay, to: LocalDay) -> [LocalDay] {
        let firstMatch = from.adding(days: (entry.weekday - from.weekday + 7) % 7)
        let lastMatch = to.adding(days: -((to.weekday - entry.weekday + 7) % 7))
        guard let n = entry.ordinal else { return stride(from: firstMatch.number, through: to.number, by: 7).map(LocalDay.init(number:)) }
        let day = n > 0 ? firstMatch.adding(days: 7 * (n - 1)) : lastMatch.adding(days: 7 * (n + 1))
        return day >= from && day <= to ? [day] : []
    }

    /// BYSETPOS: the n-th days of the period's sorted set (from the end when negative).
    private func positions(_ set: [LocalDay]) -> [LocalDay] {
        guard !bySetPos.isEmpty, !set.isEmpty else { return set }
        let picked = bySetPos.compactMap { p -> LocalDay? in
            let i = p > 0 ? p - 1 : set.count + p
            return set.indices.contains(i) ? set[i] : nil
        }
        return Array(Set(picked)).sorted()
    }

    static func monthEnd(_ year: Int, _ month: Int) -> LocalDay {
        LocalDay(year: year, month: month, day: LocalDay.daysIn(month: month, year: year))!
    }
}
