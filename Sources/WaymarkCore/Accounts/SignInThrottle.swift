import Foundation

/// ACC-6 brute-force rules, pure so that the numbers are tested without a clock.
///
/// Per username: the first 5 failures cost nothing; from then on each attempt must wait
/// 2, 4, 8 … seconds after the last failure, at most 15 minutes. A success clears the count.
/// The same counter exists for names nobody has registered, so throttling reveals nothing.
///
/// Per client address: at most 20 failures within a 10-minute window across all usernames.
public enum SignInThrottle {
    public static let freeFailures = 5
    public static let maximumDelay: TimeInterval = 15 * 60
    public static let addressFailureLimit = 20
    public static let addressWindow: TimeInterval = 10 * 60

    /// Seconds to wait after the last failure before another attempt is judged.
    public static func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures >= freeFailures else { return 0 }
        let exponent = min(failures - freeFailures + 1, 20)
        return min(pow(2, Double(exponent)), maximumDelay)
    }

    /// When the next attempt for an account may be judged, or nil when it may be now.
    public static func accountRetryAt(failures: Int, lastFailure: Date?, now: Date) -> Date? {
        guard let lastFailure else { return nil }
        let until = lastFailure.addingTimeInterval(delay(afterFailures: failures))
        return until > now ? until : nil
    }

    /// When an address may try again, or nil. `windowStart` is its first failure in the window.
    public static func addressRetryAt(failures: Int, windowStart: Date?, now: Date) -> Date? {
        guard let windowStart, failures >= addressFailureLimit else { return nil }
        let until = windowStart.addingTimeInterval(addressWindow)
        return until > now ? until : nil
    }
}
