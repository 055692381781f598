import Foundation

/// Demo sites, so that a fresh server, the emulator and the apps show something recognisable
/// without any real sensor data.
public enum DemoCampus {
    /// California State University, Fullerton. Facility names are the real ones. Positions of
    /// the four structures and of Lots A and G come from published campus coordinates; the other
    /// surface lots are placed from the campus map, to within a few tens of metres. Outlines,
    /// capacities of all but the Nutwood structure, and every rule are plausible inventions
    /// for the demo, not the university's figures.
    public static let fullerton: SitePlan = FullertonCampus.site
}

enum FullertonCampus {
    static let site = SitePlan(
        code: "csuf",
        name: "California State University, Fullerton",
        timeZone: "America/Los_Angeles",
        center: Coordinate(latitude: 33.8823, longitude: -117.8851),
        lots: [
            nutwood, stateCollege, eastsideNorth, eastsideSouth,
            lotA, lotD, lotE, lotF, lotG, lotI, lotJ, collegePark,
        ],
        permits: [
            PermitKind(code: .green, name: "Green", colour: "#1f9d55"),
            PermitKind(code: .yellow, name: "Yellow", colour: "#f2b705"),
            PermitKind(code: .black, name: "Black", colour: "#111111"),
        ])

    // MARK: Structures

    /// Opened 2004 in what was Lot D: five levels, 2,540 spaces (CSUF news, Aug 2004).
    static let nutwood = LotPlan(
        code: "NPS", name: "Nutwood Parking Structure", kind: .structure, levels: 5,
        footprint: rect(npsCentre, length: 160, width: 100, bearing: 90),
        entrance: at(npsCentre, east: -40, north: -50),
        capacity: 2_540, handicapSpots: 50, evSpots: 24,
        permitRules: studentRules,
        hours: [.allDayEveryDay],
        price: daily,
        rules: [structureClearance, "No overnight parking 2:00–5:00", "Payment required at all times without a valid permit"],
        address: "Nutwood Ave at State College Blvd, Fullerton, CA 92831",
        booking: BookingOffer(capacity: 120, pricing: LotPricing(
            currency: "USD", dailyFeeMinor: 300, includedMinutesPerDay: 120, rateMinor: 4, rateUnitMinutes: 1,
            dailyCapMinor: 1_400,
            // "No overnight parking 2:00–5:00" applies to booked spaces too.
            hours: [OpeningHours(weekdays: OpeningHours.everyDay, openMinute: 0, closeMinute: 2 * 60),
                    OpeningHours(weekdays: OpeningHours.everyDay, openMinute: 5 * 60, closeMinute: 24 * 60)])))

    static let stateCollege = LotPlan(
        code: "SCPS", name: "State College Parking Structure", kind: .structure, levels: 5,
        footprint: rect(scpsCentre, length: 140, width: 70, bearing: 0),
        entrance: at(scpsCentre, east: -35, north: -30),
        capacity: 1_480, handicapSpots: 30, evSpots: 16,
        permitRules: studentRules,
        hours: [
            OpeningHours(weekdays: RuleDays.mondayToFriday, openMinute: 6 * 60, closeMinute: 23 * 60 + 30),
            OpeningHours(weekdays: [7], openMinute: 7 * 60, closeMinute: 18 * 60),
        ],
        price: daily,
        rules: [structureClearance, "Closed on Sundays", "No overnight parking"],
        address: "West Campus Dr off State College Blvd, Fullerton, CA 92831")

    /// Opened 2010 north of the Fullerton Marriott; six levels.
    static let eastsideNorth = LotPlan(
        code: "ENPS", name: "Eastside North Parking Structure", kind: .structure, levels: 6,
        footprint: rect(enpsCentre, length: 150, width: 80, bearing: 90),
        entrance: at(enpsCentre, east: -75, north: 10),
        capacity: 2_480, handicapSpots: 48, evSpots: 40,
        permitRules: studentRules,
        hours: [.allDayEveryDay],
        price: daily,
        rules: [structureClearance, "No overnight parking 2:00–5:00", "EV stalls: move your car when charging is complete"],
        address: "Nutwood Ave east entrance, by the Fullerton Marriott, Fullerton, CA 92831")

    /// Opened for 2020–21 on part of Lot E, six levels, about 1,900 spaces (OC Register, Nov 2019).
    static let eastsideSouth = LotPlan(
        code: "ESPS", name: "Eastside South Parking Structure", kind: .structure, levels: 6,
        footprint: rect(espsCentre, length: 130, width: 75, bearing: 90),
        entrance: at(espsCentre, east: -65, north: -10),
        capacity: 1_900, handicapSpots: 38, evSpots: 60,
        permitRules: studentRules,
        hours: espsHours,
        price: daily,
        rules: [structureClearance, "No overnight parking", "EV stalls: move your car when charging is complete"],
        address: "Nutwood Ave east entrance, by the Fullerton Marriott, Fullerton, CA 92831",
        booking: BookingOffer(capacity: 80, pricing: LotPricing(
            currency: "USD", rateMinor: 250, rateUnitMinutes: 60, dailyCapMinor: 1_200, hours: espsHours)))

    // MARK: Surface lots

    /// Stack parking ran in Lots A and G in the busiest weeks (CSUF Inside, 2009).
    static let lotA = LotPlan(
        code: "A", name: "Lot A", kind: .surface, levels: 1,
        footprint: ring(lotACentre, [(-55, -125), (55, -125), (55, 70), (15, 125), (-55, 125)]),
        entrance: at(lotACentre, east: -55, north: -30),
        capacity: 950, handicapSpots: 20, evSpots: 8,
        permitRules: studentRules,
        hours: [.allDayEveryDay],
        price: daily,
        rules: ["During stack parking (first two weeks of term) keys must be left with the attendant",
                "No overnight parking", "Head-in parking only"],
        address: "State College Blvd, north of the Student Recreation Center, Fullerton, CA 92831",
        keysRequired: true,
        // A flat day rate a little above the pay station's daily maximum: the space is certain.
        booking: BookingOffer(capacity: 60, pricing: LotPricing(
            currency: "USD", dailyFeeMinor: 1_200, includedMinutesPerDay: 1_440, hours: [.allDayEveryDay])))

    static let lotD = LotPlan(
        code: "D", name: "Lot D", kind: .surface, levels: 1,
        footprint: rect(lotDCentre, length: 125, width: 66, bearing: 85),
        entrance: at(lotDCentre, east: -62, north: -5),
        capacity: 250, handicapSpots: 12, evSpots: 4,
        permitRules: [PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60,
                                 permits: [.black, .handicap])],
        hours: [OpeningHours(weekdays: RuleDays.mondayToFriday, openMinute: 6 * 60, closeMinute: 22 * 60 + 30)],
        price: daily,
        rules: ["Faculty/staff and disabled placard holders on weekdays", "No overnight parking"],
        address: "West Campus Dr, north of the State College Parking Structure, Fullerton, CA 92831")

    static let lotE = LotPlan(
        code: "E", name: "Lot E", kind: .surface, levels: 1,
        footprint: rect(lotECentre, length: 105, width: 64, bearing: 90),
        entrance: at(lotECentre, east: 0, north: -32),
        capacity: 200, handicapSpots: 6, evSpots: 0,
        permitRules: [PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60,
                                 permits: [.green, .yellow, .black])],
        hours: [.allDayEveryDay],
        price: daily,
        rules: ["No overnight parking", "Head-in parking only"],
        address: "Nutwood Ave east entrance, Fullerton, CA 92831")

    static let lotF = LotPlan(
        code: "F", name: "Lot F", kind: .surface, levels: 1,
        footprint: rect(lotFCentre, length: 80, width: 55, bearing: 0),
        entrance: at(lotFCentre, east: 0, north: -40),
        capacity: 150, handicapSpots: 8, evSpots: 6,
        permitRules: [PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 6 * 60 + 30, endMinute: 22 * 60,
                                 permits: [.black, .handicap])],
        hours: [OpeningHours(weekdays: RuleDays.mondayToFriday, openMinute: 6 * 60, closeMinute: 22 * 60 + 30)],
        price: daily,
        rules: ["Faculty/staff permit required on weekdays", "Disabled placard holders may use any faculty/staff stall"],
        address: "East Campus Dr, by Humanities, Fullerton, CA 92831")

    static let lotG = LotPlan(
        code: "G", name: "Lot G", kind: .surface, levels: 1,
        footprint: ring(lotGCentre, [(-90, -46), (90, -46), (80, 46), (-75, 46)]),
        entrance: at(lotGCentre, east: -20, north: 46),
        capacity: 540, handicapSpots: 12, evSpots: 6,
        permitRules: [PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60,
                                 permits: [.green, .yellow, .black])],
        hours: [OpeningHours(weekdays: [2, 3, 4, 5, 6, 7], openMinute: 6 * 60, closeMinute: 23 * 60)],
        price: daily,
        rules: ["During stack parking (first two weeks of term) keys must be left with the attendant",
                "Event parking rates apply on game days", "No overnight parking"],
        address: "Yorba Linda Blvd, by Titan Stadium, Fullerton, CA 92831",
        keysRequired: true,
        booking: BookingOffer(capacity: 40, pricing: LotPricing(
            currency: "USD", rateMinor: 200, rateUnitMinutes: 60, dailyCapMinor: 900,
            hours: [OpeningHours(weekdays: [2, 3, 4, 5, 6, 7], openMinute: 6 * 60, closeMinute: 23 * 60)])))

    static let lotI = LotPlan(
        code: "I", name: "Lot I", kind: .surface, levels: 1,
        footprint: rect(lotICentre, length: 85, width: 55, bearing: 90),
        entrance: at(lotICentre, east: 42, north: 0),
        capacity: 160, handicapSpots: 6, evSpots: 4,
        permitRules: [
            PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 17 * 60, permits: [.black]),
            PermitRule(weekdays: RuleDays.mondayToThursday, startMinute: 17 * 60, endMinute: 22 * 60,
                       permits: [.green, .yellow, .black]),
        ],
        hours: [OpeningHours(weekdays: RuleDays.mondayToFriday, openMinute: 6 * 60, closeMinute: 22 * 60 + 30)],
        price: daily,
        rules: ["Faculty/staff only until 17:00 on weekdays", "Open to student permits for evening classes"],
        address: "East Campus Dr, by Engineering and Computer Science, Fullerton, CA 92831")

    static let lotJ = LotPlan(
        code: "J", name: "Lot J", kind: .surface, levels: 1,
        footprint: rect(lotJCentre, length: 110, width: 60, bearing: 90),
        entrance: at(lotJCentre, east: 55, north: -10),
        capacity: 210, handicapSpots: 6, evSpots: 8,
        permitRules: [
            PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60, permits: [.yellow, .black]),
            PermitRule(weekdays: RuleDays.weekend, startMinute: 7 * 60, endMinute: 22 * 60, permits: [.yellow]),
            PermitRule(weekdays: OpeningHours.everyDay, startMinute: 0, endMinute: 7 * 60, permits: [.yellow]),
            PermitRule(weekdays: OpeningHours.everyDay, startMinute: 22 * 60, endMinute: 24 * 60, permits: [.yellow]),
        ],
        hours: [.allDayEveryDay],
        price: daily,
        rules: ["Overnight parking for resident permits only", "Head-in parking only"],
        address: "Residence Hall Dr, by Student Housing, Fullerton, CA 92831")

    /// A valet for faculty and staff has run here (OC Register, Nov 2019).
    static let collegePark = LotPlan(
        code: "CP", name: "College Park Lot", kind: .surface, levels: 1,
        footprint: ring(cpCentre, [(-70, -38), (70, -38), (70, 20), (40, 38), (-70, 38)]),
        entrance: at(cpCentre, east: -20, north: 38),
        capacity: 340, handicapSpots: 10, evSpots: 12,
        permitRules: [PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60, permits: [.black])],
        hours: collegeParkHours,
        price: daily,
        rules: ["Faculty/staff valet Mon–Thu 8:00–16:00: keys must be left with the attendant", "No overnight parking"],
        address: "2600 Nutwood Ave, Fullerton, CA 92831",
        keysRequired: true,
        booking: BookingOffer(capacity: 20, pricing: LotPricing(
            currency: "USD", dailyFeeMinor: 500, includedMinutesPerDay: 60, rateMinor: 3, rateUnitMinutes: 1,
            dailyCapMinor: 1_500, hours: collegeParkHours)))

    // MARK: Shared pieces

    private static let espsHours = [
        OpeningHours(weekdays: RuleDays.mondayToFriday, openMinute: 6 * 60, closeMinute: 24 * 60),
        OpeningHours(weekdays: RuleDays.weekend, openMinute: 7 * 60, closeMinute: 22 * 60),
    ]
    private static let collegeParkHours = [
        OpeningHours(weekdays: RuleDays.mondayToFriday, openMinute: 6 * 60 + 30, closeMinute: 22 * 60),
        OpeningHours(weekdays: [7], openMinute: 7 * 60, closeMinute: 17 * 60),
    ]

    private static let npsCentre = Coordinate(latitude: 33.87912, longitude: -117.88852)
    private static let scpsCentre = Coordinate(latitude: 33.88312, longitude: -117.88870)
    private static let enpsCentre = Coordinate(latitude: 33.88106, longitude: -117.88179)
    private static let espsCentre = Coordinate(latitude: 33.88034, longitude: -117.88175)
    private static let lotACentre = Coordinate(latitude: 33.88740, longitude: -117.88877)
    private static let lotDCentre = Coordinate(latitude: 33.88460, longitude: -117.88820)
    private static let lotECentre = Coordinate(latitude: 33.87920, longitude: -117.88150)
    private static let lotFCentre = Coordinate(latitude: 33.88035, longitude: -117.88305)
    private static let lotGCentre = Coordinate(latitude: 33.88842, longitude: -117.88659)
    private static let lotICentre = Coordinate(latitude: 33.88130, longitude: -117.88340)
    private static let lotJCentre = Coordinate(latitude: 33.88320, longitude: -117.88300)
    private static let cpCentre = Coordinate(latitude: 33.87730, longitude: -117.88320)

    private enum RuleDays {
        static let mondayToFriday = PermitRule.weekdaysMondayToFriday
        static let mondayToThursday: Set<Weekday> = [2, 3, 4, 5]
        static let weekend: Set<Weekday> = [1, 7]
    }

    /// Commuter students (Green) and, as on most CSU campuses, faculty/staff (Black) too.
    private static let studentRules = [
        PermitRule(weekdays: RuleDays.mondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60, permits: [.green, .black]),
    ]

    /// Student fees as of 2019: $4 an hour, $10 a day.
    private static let daily = LotPrice(currency: "USD", hourlyCents: 400, dailyMaxCents: 1_000)

    private static let structureClearance = "Height limit 2.1 m (6 ft 10 in)"

    private static func at(_ c: Coordinate, east: Double, north: Double) -> Coordinate {
        Geo.offset(c, east: east, north: north)
    }

    /// A rectangle `length` long along `bearing` (degrees clockwise from north).
    private static func rect(_ c: Coordinate, length: Double, width: Double, bearing: Double) -> [Coordinate] {
        let b = bearing * .pi / 180
        let along = (east: sin(b), north: cos(b)), across = (east: cos(b), north: -sin(b))
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { s, t in
            let l = s * length / 2, w = t * width / 2
            return at(c, east: l * along.east + w * across.east, north: l * along.north + w * across.north)
        }
    }

    /// Vertices as metres east and north of `c`.
    private static func ring(_ c: Coordinate, _ offsets: [(Double, Double)]) -> [Coordinate] {
        offsets.map { at(c, east: $0.0, north: $0.1) }
    }
}
