import Foundation
import WaymarkAPI
import WaymarkCore

/// `listLots`'s filters (PRK-14): the query turned into a `LotFilter`, which decides; this
/// only reads the request and the rows.
enum LotSearch {
    static func invalid(_ detail: String) -> Problem {
        Problem(type: "lot-filter-invalid", title: "The lot filter is not valid", status: 400, detail: detail)
    }

    /// Permit codes are the site's own (`sitePermits`), `handicap` or `none`.
    static func filter(_ q: Operations.ListLots.Input.Query, timeZone: TimeZone, sitePermits: [PermitKind], now: Date) throws -> LotFilter {
        var filter = LotFilter(ratingAbove: q.ratingAbove, radiusMetres: q.radius, keysRequired: q.keysRequired,
                               maxHourlyCents: q.maxHourlyCents)
        filter.accessibleFreeNow = q.accessible == true
        filter.text = q.q
        switch (q.lat, q.lon) {
        case let (lat?, lon?): filter.near = Coordinate(latitude: lat, longitude: lon)
        case (nil, nil): break
        default: throw invalid("lat and lon go together.")
        }
        if let permits = q.permit {
            guard (1...5).contains(permits.count) else { throw invalid("permit is given 1 to 5 times.") }
            var wanted = Set<Permit>()
            let issued = PermitKind.codes(issuedBy: sitePermits)
            for code in permits where code != "none" {
                guard let permit = Permit(rawValue: code), issued.contains(permit) else {
                    let names = (sitePermits.map(\.code.rawValue) + ["handicap", "none"]).joined(separator: ", ")
                    throw invalid("permit \"\(code.prefix(40))\" is not one this site knows; give one of \(names).")
                }
                wanted.insert(permit)
            }
            filter.permits = wanted
            let moment = PermitCheck.localMoment(of: q.at ?? now, timeZone: timeZone)
            filter.permitAt = (moment.weekday, moment.minute)
        } else if q.at != nil {
            throw invalid("at is the time of the permit filter: give permit too.")
        }
        do { try filter.validate() } catch { throw invalid(message(error)) }
        return filter
    }

    private static func message(_ error: LotFilter.Invalid) -> String {
        switch error {
        case .ratingOutOfRange: "ratingAbove is 0 to 5."
        case .pointInvalid: "lat is -90 to 90 and lon -180 to 180."
        case .radiusWithoutPoint: "radius needs lat and lon."
        case .radiusOutOfRange: "radius is more than 0 and at most \(Int(LotFilter.maxRadiusMetres)) metres."
        case .priceOutOfRange: "maxHourlyCents is 0 to \(LotFilter.maxHourlyCentsLimit)."
        case .permitTimeWithoutPermit: "at needs permit."
        case .textInvalid: "q is 1 to \(LotText.maxLength) characters with at least one letter or digit."
        }
    }

    static func candidate(_ r: LotRow, rating: RatingSummary, accessibleFree: Int = 0) throws -> LotFilter.Candidate {
        var c = LotFilter.Candidate(
            center: Coordinate(latitude: r.centerLat, longitude: r.centerLon), rating: rating,
            keysRequired: r.keysRequired != 0, permitRules: try StoredPermitRule.rules(r.permitRules),
            hourlyCents: try JSONColumn.decode(LotPrice.self, r.price).hourlyCents, accessibleFree: accessibleFree)
        c.name = r.name
        c.code = r.code
        c.address = r.address.isEmpty ? nil : r.address
        return c
    }
}
