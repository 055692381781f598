import Foundation
import NIOConcurrencyHelpers

/// Time that tests set and move. Every application under test reads it instead of the system clock.
final class TestClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    /// Wednesday 2026-11-18 09:00 in Fullerton (17:00 UTC): a busy campus morning.
    static let campusMorning = Date(timeIntervalSince1970: 1_795_021_200)

    init(_ start: Date = TestClock.campusMorning) { current = NIOLockedValueBox(start) }

    var now: Date { current.withLockedValue { $0 } }
    func set(_ date: Date) { current.withLockedValue { $0 = date } }
    func advance(by seconds: TimeInterval) { current.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
    var function: @Sendable () -> Date { { [self] in self.now } }
}
