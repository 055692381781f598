import Foundation
import Testing
import WaymarkCore

@Suite("Account rules (ACC-1, ACC-2, ACC-6, ACC-10)")
struct AccountRulesTests {
    @Test("ACC-2 the policy names every rule a password breaks", arguments: [
        ("Str0ng!pass", [PasswordPolicy.Rule]()),
        ("short1!A", []),
        ("Sh0rt!", [.length]),
        ("alllower1!", [.upperCase]),
        ("NoDigits!!", [.digit]),
        ("NoSymbol123", [.symbol]),
        ("", [.length, .upperCase, .digit, .symbol]),
        ("Ünïcode1€", []),
    ])
    func policy(password: String, failures: [PasswordPolicy.Rule]) {
        #expect(PasswordPolicy.failures(password) == failures)
        #expect((PasswordPolicy.explanation(password) == nil) == failures.isEmpty)
    }

    @Test("ACC-2 the explanation lists the missing parts in words")
    func explanation() {
        #expect(PasswordPolicy.explanation("abc") ==
            "The password needs at least 8 characters, an upper-case letter, a digit and a character that is not a letter or digit (such as ! or #).")
        #expect(PasswordPolicy.explanation("Abcdefgh1") == "The password needs a character that is not a letter or digit (such as ! or #).")
        #expect(PasswordPolicy.explanation("Aa1!" + String(repeating: "x", count: 300)) == "The password must have at most 256 characters.")
        // A space is not the "symbol" the policy asks for.
        #expect(PasswordPolicy.failures("Abcdefg 1") == [.symbol])
    }

    @Test("ACC-1 usernames: 3–32 ASCII letters, digits and . _ -, unique regardless of case")
    func usernames() {
        #expect(UsernameRules.problem("ana") == nil)
        #expect(UsernameRules.problem("Ana.Lopez-2_x") == nil)
        #expect(UsernameRules.problem("ab") != nil)
        #expect(UsernameRules.problem(String(repeating: "a", count: 33)) != nil)
        #expect(UsernameRules.problem("anä") != nil)
        #expect(UsernameRules.problem("a b c") != nil)
        #expect(UsernameRules.problem("'; DROP TABLE users;--") != nil)
        #expect(UsernameRules.key("AnA") == UsernameRules.key("ana"))
    }

    @Test("ACC-1 email addresses are checked loosely and never carry header breaks")
    func emails() {
        #expect(EmailRules.isPlausible("ana@example.com"))
        #expect(!EmailRules.isPlausible("ana@localhost"))
        #expect(!EmailRules.isPlausible("ana example.com"))
        #expect(!EmailRules.isPlausible("ana@example.com\r\nBcc: x@y.z"))
        #expect(!EmailRules.isPlausible("<ana@example.com>"))
    }

    @Test("ACC-6 five free failures, then 2, 4, 8 … seconds, at most 15 minutes")
    func throttleDelays() {
        #expect((0..<5).map(SignInThrottle.delay(afterFailures:)) == [0, 0, 0, 0, 0])
        #expect(SignInThrottle.delay(afterFailures: 5) == 2)
        #expect(SignInThrottle.delay(afterFailures: 6) == 4)
        #expect(SignInThrottle.delay(afterFailures: 7) == 8)
        #expect(SignInThrottle.delay(afterFailures: 40) == 900)
        let t = Date(timeIntervalSince1970: 1_000_000)
        #expect(SignInThrottle.accountRetryAt(failures: 5, lastFailure: t, now: t.addingTimeInterval(1)) == t.addingTimeInterval(2))
        #expect(SignInThrottle.accountRetryAt(failures: 5, lastFailure: t, now: t.addingTimeInterval(2)) == nil)
        #expect(SignInThrottle.addressRetryAt(failures: 19, windowStart: t, now: t) == nil)
        #expect(SignInThrottle.addressRetryAt(failures: 20, windowStart: t, now: t.addingTimeInterval(60)) == t.addingTimeInterval(600))
        #expect(SignInThrottle.addressRetryAt(failures: 20, windowStart: t, now: t.addingTimeInterval(601)) == nil)
    }

    @Test("ACC-10 units default from the locale's region")
    func units() {
        #expect(UnitPreferences.forLocale("en_US") == .usCustomary)
        #expect(UnitPreferences.forLocale("en-US") == .usCustomary)
        #expect(UnitPreferences.forLocale("en-GB") == .metric)
        #expect(UnitPreferences.forLocale("es-CO") == .metric)
    }
}

@Suite("Weekly parking schedule (PRK-16)")
struct WeeklyScheduleTests {
    let studentRule = PermitRule(weekdays: PermitRule.weekdaysMondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60, permits: [.green, .yellow])
    func typical(_ values: [Int: Double]) -> [Double?] {
        (0..<48).map { values[$0] }
    }

    @Test("PRK-16 blocks overlap only on the same weekday and shared half hours")
    func overlaps() {
        let a = ScheduleBlock(id: "a", weekday: 2, startSlot: 16, endSlot: 20)
        #expect(a.overlaps(ScheduleBlock(id: "b", weekday: 2, startSlot: 19, endSlot: 22)))
        #expect(!a.overlaps(ScheduleBlock(id: "b", weekday: 2, startSlot: 20, endSlot: 22)))
        #expect(!a.overlaps(ScheduleBlock(id: "b", weekday: 3, startSlot: 16, endSlot: 20)))
        #expect(WeeklySchedule.conflict(for: a, in: [a]) == nil, "a block does not conflict with itself when moved")
        #expect(WeeklySchedule.gridProblem(weekday: 0, startSlot: 0, endSlot: 1) != nil)
        #expect(WeeklySchedule.gridProblem(weekday: 7, startSlot: 47, endSlot: 48) == nil)
        #expect(WeeklySchedule.gridProblem(weekday: 1, startSlot: 5, endSlot: 5) != nil)
        #expect(WeeklySchedule.gridProblem(weekday: 1, startSlot: 0, endSlot: 49) != nil)
    }

    @Test("ACC-8 merging a device's blocks keeps the account's and adds those that fit")
    func merge() {
        let kept = [ScheduleBlock(id: "k", weekday: 2, startSlot: 16, endSlot: 20)]
        let incoming = [
            ScheduleBlock(id: "x", weekday: 2, startSlot: 18, endSlot: 24),  // overlaps the account's
            ScheduleBlock(id: "y", weekday: 2, startSlot: 20, endSlot: 22),
            ScheduleBlock(id: "z", weekday: 2, startSlot: 21, endSlot: 23),  // overlaps y, which came first
            ScheduleBlock(id: "w", weekday: 4, startSlot: 0, endSlot: 48),
        ]
        #expect(WeeklySchedule.mergeable(incoming, into: kept).map(\.id) == ["y", "w"])
    }

    static let names = PermitNames(DemoCampus.fullerton.permits)

    @Test("PRK-16 red when a permit the lot requires is missing, named with its time")
    func red() {
        let advice = ScheduleAdvisor.advise(weekday: 2, startSlot: 16, endSlot: 18, rules: [studentRule], typical: typical([16: 0.2]), permits: [], names: Self.names)
        #expect(advice.level == .red)
        #expect(advice.requiredPermits == [.green, .yellow])
        #expect(advice.reason == "Needs a Green or Yellow permit at 08:00 on Monday.")
        #expect(ScheduleAdvisor.advise(weekday: 2, startSlot: 16, endSlot: 18, rules: [studentRule], typical: typical([16: 0.2]), permits: [.yellow], names: Self.names).level == .green)
        // Weekends are open.
        #expect(ScheduleAdvisor.advise(weekday: 1, startSlot: 16, endSlot: 18, rules: [studentRule], typical: typical([16: 0.2]), permits: [], names: Self.names).level == .green)
    }

    @Test("PRK-16 a permit that becomes required in the middle of a block still makes it red")
    func redMidBlock() {
        let rule = PermitRule(weekdays: [3], startMinute: 8 * 60 + 15, endMinute: 9 * 60, permits: [.black])
        let advice = ScheduleAdvisor.advise(weekday: 3, startSlot: 14, endSlot: 17, rules: [rule], typical: typical([14: 0.1]), permits: [.green], names: Self.names)
        #expect(advice.level == .red)
        #expect(advice.reason.contains("08:15"))
        #expect(ScheduleAdvisor.advise(weekday: 3, startSlot: 12, endSlot: 16, rules: [rule], typical: typical([12: 0.1]), permits: [], names: Self.names).level == .green,
                "a block that ends at 08:00 is not affected")
    }

    @Test("PRK-16 yellow at 85 % typical occupancy at the start, green below, unknown without history, none without a lot")
    func levels() {
        #expect(ScheduleAdvisor.advise(weekday: 4, startSlot: 20, endSlot: 24, rules: [], typical: typical([20: 0.85]), permits: [], names: Self.names).level == .yellow)
        #expect(ScheduleAdvisor.advise(weekday: 4, startSlot: 20, endSlot: 24, rules: [], typical: typical([20: 0.849, 21: 0.99]), permits: [], names: Self.names).level == .green)
        #expect(ScheduleAdvisor.advise(weekday: 4, startSlot: 20, endSlot: 24, rules: [], typical: typical([:]), permits: [], names: Self.names).level == .unknown)
        let yellow = ScheduleAdvisor.advise(weekday: 4, startSlot: 20, endSlot: 24, rules: [], typical: typical([20: 0.9]), permits: [], names: Self.names)
        #expect(yellow.reason.hasPrefix("Usually 90 % full at 10:00"))
        #expect(ScheduleAdvice(level: .none, reason: "").rank > yellow.rank)
    }
}
