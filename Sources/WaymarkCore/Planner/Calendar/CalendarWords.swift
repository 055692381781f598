import Foundation

/// The plain English of the calendar import's reasons and notes: days, lengths and repeat
/// rules said the way a person would say them ("every month on the 2nd Tuesday").
enum CalendarWords {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]

    /// "20,000".
    static func number(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// "27 November 2028".
    static func day(_ day: LocalDay) -> String {
        let c = day.components
        return "\(c.day) \(months[c.month - 1]) \(c.year)"
    }

    /// "1 day", "3 days".
    static func count(_ n: Int, _ unit: String) -> String { "\(number(n)) \(unit)\(n == 1 ? "" : "s")" }

    /// A length on the wall clock: "25 hours", "4 days and 8 hours", "3 days".
    static func length(minutes: Int) -> String {
        if minutes < 48 * 60 {
            let h = minutes / 60, m = minutes % 60
            return m == 0 ? count(h, "hour") : h == 0 ? count(m, "minute") : "\(count(h, "hour")) and \(count(m, "minute"))"
        }
        let d = minutes / 1440, h = (minutes % 1440 + 30) / 60
        return h == 0 ? count(d, "day") : "\(count(d, "day")) and \(count(h, "hour"))"
    }

    /// "1st", "2nd", "3rd", "11th", "22nd".
    static func ordinal(_ n: Int) -> String {
        let tens = n % 100
        let suffix = (11...13).contains(tens) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    static func list(_ items: [String]) -> String { ListWords.and(items) }

    static func weekday(_ d: Weekday) -> String { WeeklySchedule.weekdayName(d) }

    /// "the 2nd Tuesday", "the last Friday", "Monday".
    static func dayOfWeek(_ d: RecurrenceRule.DayOfWeek) -> String {
        guard let n = d.ordinal else { return weekday(d.weekday) }
        switch n {
        case -1: return "the last \(weekday(d.weekday))"
        case -2: return "the second-to-last \(weekday(d.weekday))"
        case ..<0: return "the \(ordinal(-n)) \(weekday(d.weekday)) from the end"
        default: return "the \(ordinal(n)) \(weekday(d.weekday))"
        }
    }

    /// "day 15", "the last day", "the 3rd day from the end".
    static func monthDay(_ n: Int) -> String {
        switch n {
        case -1: return "the last day"
        case ..<0: return "the \(ordinal(-n)) day from the end"
        default: return "day \(n)"
        }
    }

    /// What a rule does, in words: "every month on the 2nd Tuesday", "every 3 days", "every year
    /// in March on the last Sunday", "every 2 weeks on Monday and Thursday". Parts it cannot
    /// say simply are given as the rule itself.
    static func rule(_ r: RecurrenceRule, first: LocalDay) -> String {
        let unit: String
        switch r.frequency {
        case .daily: unit = "day"
        case .weekly: unit = "week"
        case .monthly: unit = "month"
        case .yearly: unit = "year"
        default: return "by the rule “\(r.text)”"
        }
        if !r.bySetPos.isEmpty || !r.byYearDay.isEmpty || !r.byWeekNo.isEmpty { return "by the rule “\(r.text)”" }
        var out = r.interval == 1 ? "every \(unit)" : "every \(number(r.interval)) \(unit)s"
        if !r.byMonth.isEmpty { out += " in " + list(r.byMonth.sorted().map { months[$0 - 1] }) }
        var on: [String] = []
        if !r.byMonthDay.isEmpty { on.append(list(r.byMonthDay.map(monthDay))) }
        if !r.byDay.isEmpty {
            let days = list(r.byDay.map(dayOfWeek))
            on.append(r.byMonthDay.isEmpty ? days : "if a \(list(r.byDay.map { weekday($0.weekday) }))")
        }
        if on.isEmpty {
            let c = first.components
            switch r.frequency {
            case .weekly: on.append(weekday(first.weekday))
            case .monthly: on.append("day \(c.day)")
            case .yearly where r.byMonth.isEmpty: on.append("\(c.day) \(months[c.month - 1])")
            case .yearly: on.append("day \(c.day)")
            default: break
            }
        }
        if !on.isEmpty { out += " on " + on.joined(separator: " ") }
        if r.frequency == .weekly, r.weekStart != 2, r.interval > 1 { out += " (weeks starting on \(weekday(r.weekStart)))" }
        return out
    }
}
