import Foundation
import Testing
import WaymarkCore

@Suite("Parking's words as drivers read them (PRK-12, QLT-4)")
struct ParkingWordsTests {
    static let instant = Date(timeIntervalSince1970: 1_795_608_000) // 2026-11-25T12:00:00Z
    static let zones = ["America/Los_Angeles", "Europe/Rome", "Asia/Tokyo"].compactMap(TimeZone.init(identifier:))
    static let locales = ["en_US", "en_GB", "de_DE", "it_IT", "ja_JP"].map(Locale.init(identifier:))

    /// Every refusal Parking's rules can give a driver, each case once.
    static var refusals: [(String, (TimeZone, Locale) -> String)] {
        let pricing: [PricingError] = [.invalidTariff("rate must be positive."), .notWholeMinutes, .endNotAfterStart,
                                       .startsInPast, .tooLong(maximum: 7 * 86_400), .tooLong(maximum: 90 * 60), .closed(at: instant)]
        let booking: [BookingError] = BookingState.allCases.map { .notAllowed(in: $0) } + [
            .alreadyStarted, .checkInNotOpenYet(opensAt: instant), .checkInClosed, .notDueYet(at: instant), .sameRange,
            .currencyMismatch(expected: "USD", got: "EUR")]
        let wallet: [WalletRules.TopUpError] = [.invalidCurrency("usd"), .amountOutOfRange(WalletRules.topUpRange),
                                                .balanceLimit(balance: Money(150_000, "USD"), maximum: WalletRules.maximumBalanceMinor)]
        return pricing.map { e in ("\(e)", { e.words(zone: $0, locale: $1) }) }
            + booking.map { e in ("\(e)", { e.words(zone: $0, locale: $1) }) }
            + wallet.map { e in ("\(e)", { _, _ in e.description }) }
    }

    /// What a person should never have to read.
    static func machineText(in text: String) -> String? {
        let patterns = [
            #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"#,                                       // ISO 8601 timestamp
            #"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"#, // UUID
            #"\b[a-z]+[A-Z][A-Za-z]*\b"#,                                              // an enum case's name
        ]
        for p in patterns {
            if let r = text.range(of: p, options: .regularExpression) { return String(text[r]) }
        }
        return nil
    }

    @Test("QLT-4 no Parking refusal shows a timestamp, an id or an enum's name, in any zone or language")
    func noMachineText() {
        for (name, words) in Self.refusals {
            for zone in Self.zones {
                for locale in Self.locales {
                    let text = words(zone, locale)
                    #expect(Self.machineText(in: text) == nil, "\(name) in \(zone.identifier), \(locale.identifier): \(text)")
                    #expect(!text.isEmpty)
                }
            }
        }
        // The check itself finds what it is for.
        #expect(Self.machineText(in: "closed at 2026-11-25T12:00:00Z") != nil)
        #expect(Self.machineText(in: "booking 0b3f1c2e-4a5d-4e6f-8a9b-0c1d2e3f4a5b") != nil)
        #expect(Self.machineText(in: "a booking that is checkedIn") != nil)
    }

    @Test("PRK-12 a closed lot names the time on the site's clock in the person's language")
    func closedAtSiteTime() throws {
        let la = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let closed = PricingError.closed(at: Self.instant)
        // 12:00 UTC is 04:00 in Fullerton on that Wednesday.
        let english = closed.words(zone: la, locale: Locale(identifier: "en_US"))
        #expect(english.contains("Wed, Nov 25"), "\(english)")
        #expect(english.contains("4:00"), "\(english)")
        #expect(english.contains("AM"), "\(english)")
        let german = closed.words(zone: la, locale: Locale(identifier: "de_DE"))
        #expect(german.contains("04:00"), "\(german)")
        #expect(german.contains("25."), "\(german)")
        #expect(!german.contains("AM"), "\(german)")
        let notAllowed = BookingError.notAllowed(in: .checkedIn).words(zone: la, locale: Locale(identifier: "en_US"))
        #expect(notAllowed == "Not possible for a booking that is checked in.")
    }

    @Test("QLT-4 the language a browser asks for is the first it weighs highest")
    func acceptLanguage() {
        #expect(ParkingWords.locale(acceptLanguage: "de-DE,de;q=0.9,en;q=0.8")?.identifier == "de_DE")
        #expect(ParkingWords.locale(acceptLanguage: "en;q=0.5, it-IT")?.identifier == "it_IT")
        #expect(ParkingWords.locale(acceptLanguage: "*") == nil)
        #expect(ParkingWords.locale(acceptLanguage: "fr;q=0") == nil)
        #expect(ParkingWords.locale(acceptLanguage: "<script>") == nil)
        #expect(ParkingWords.locale(acceptLanguage: nil) == nil)
        #expect(ParkingWords.locale(acceptLanguage: String(repeating: "en,", count: 200)) == nil)
    }
}
