import Foundation
import Testing
@testable import WaymarkCore

@Suite("Booking offers and wallet limits (PRK-12, PRK-13)")
struct BookingOfferTests {
    @Test("PRK-12 several demo lots offer bookable spaces in USD, each a valid offer smaller than the lot, with hours inside the lot's")
    func demoOffers() throws {
        let offered = DemoCampus.fullerton.lots.filter { $0.booking != nil }
        #expect(offered.count >= 4)
        #expect(offered.count < DemoCampus.fullerton.lots.count, "some lots are drive-in only")
        let zone = try #require(TimeZone(identifier: DemoCampus.fullerton.timeZone))
        for lot in offered {
            let offer = try #require(lot.booking)
            #expect(offer.problem == nil, "\(lot.code)")
            #expect(offer.pricing.currency == "USD", "\(lot.code)")
            #expect(offer.capacity < lot.capacity / 5, "\(lot.code): most spaces stay for drivers without a booking")
            // A weekday morning, 09:00–11:00 on Wednesday 2 December 2026, costs something and
            // no more than the day's cap.
            let start = Date(timeIntervalSince1970: 1_796_230_800), end = start.addingTimeInterval(7200)
            let price = try offer.pricing.price(for: BookingRange(start: start, end: end), in: zone, now: start.addingTimeInterval(-86_400))
            #expect(price.isPositive, "\(lot.code)")
            #expect(price.minorUnits <= (offer.pricing.dailyCapMinor ?? .max), "\(lot.code)")
        }
    }

    @Test("PRK-12 an offer needs 1 to 100,000 spaces and a valid tariff; bookings start at most 90 days ahead")
    func offerProblems() {
        let tariff = LotPricing(currency: "USD", rateMinor: 100, rateUnitMinutes: 60)
        #expect(BookingOffer(capacity: 1, pricing: tariff).problem == nil)
        #expect(BookingOffer(capacity: 0, pricing: tariff).problem != nil)
        #expect(BookingOffer(capacity: 100_001, pricing: tariff).problem != nil)
        #expect(BookingOffer(capacity: 5, pricing: LotPricing(currency: "usd")).problem != nil)
        let now = Date(timeIntervalSince1970: 1_795_021_200)
        let at90 = BookingRange(start: now.addingTimeInterval(90 * 86_400), end: now.addingTimeInterval(90 * 86_400 + 3600))
        #expect(BookingOffer.advanceProblem(at90, now: now) == nil)
        let later = BookingRange(start: at90.start.addingTimeInterval(60), end: at90.end.addingTimeInterval(60))
        #expect(BookingOffer.advanceProblem(later, now: now)?.contains("90 days") == true)
    }

    @Test("PRK-13 a top-up is 100 to 50,000 minor units and a wallet holds at most 200,000")
    func topUpLimits() {
        #expect(throws: Never.self) { try WalletRules.checkTopUp(Money(100, "USD"), onto: .zero("USD")) }
        #expect(throws: Never.self) { try WalletRules.checkTopUp(Money(50_000, "USD"), onto: Money(150_000, "USD")) }
        #expect(throws: WalletRules.TopUpError.amountOutOfRange(100...50_000)) { try WalletRules.checkTopUp(Money(99, "USD"), onto: .zero("USD")) }
        #expect(throws: WalletRules.TopUpError.amountOutOfRange(100...50_000)) { try WalletRules.checkTopUp(Money(50_001, "USD"), onto: .zero("USD")) }
        #expect(throws: WalletRules.TopUpError.invalidCurrency("usd")) { try WalletRules.checkTopUp(Money(500, "usd"), onto: .zero("usd")) }
        #expect(throws: WalletRules.TopUpError.balanceLimit(balance: Money(150_001, "USD"), maximum: 200_000)) {
            try WalletRules.checkTopUp(Money(50_000, "USD"), onto: Money(150_001, "USD"))
        }
    }
}
