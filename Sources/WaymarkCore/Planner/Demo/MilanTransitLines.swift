import Foundation

/// One line of the demo network: its route, the stops it calls at and when it runs.
struct MilanTransitLine: Sendable {
    enum Schedule: Sendable {
        /// Every trip written out in stop_times.txt.
        case trips
        /// One trip per direction and service repeated by frequencies.txt; the trips that leave
        /// after midnight (24:00 and later) are written out, as the last ones of a night often are.
        case frequencies(exactTimes: Bool)
    }

    /// How the vehicles move: the average speed over a stretch, stop included, the way's length
    /// against the straight line, the stop's length and the shortest stretch.
    struct Vehicle: Sendable {
        var kilometresPerHour: Double
        var detour: Double
        var dwell: Int
        var shortestRun: Int
    }

    /// Departures every `headway` seconds from `start` to before `end`, from the first stop.
    struct Window: Sendable {
        var start: Int
        var end: Int
        var headway: Int
    }

    var routeId: String
    var agencyId: String
    var shortName: String
    var longName: String
    var description: String
    /// GTFS `route_type`: 0 tram, 1 metro, 2 rail, 3 bus.
    var routeType: Int
    var colour: String
    var textColour: String
    /// Direction 0's stops; direction 1 calls at them backwards.
    var stops: [String]
    var headsigns: (outbound: String, inbound: String)
    var vehicle: Vehicle
    var schedule: Schedule
    /// The day types' departures, by service id.
    var service: [(serviceId: String, windows: [Window])]
    /// Seconds added to every departure, so lines sharing track do not leave together.
    var offset = 0
    /// Stops given a time (the rest are timed by distance, `timepoint` 0); nil for all of them.
    var timed: Set<String>? = nil
}

// The lines, their day types and headways. Weekdays are Monday to Friday ("WD"), then Saturday
// ("SA") and Sunday with public holidays ("SU"). The metro runs from 05:40 until its last
// departures at about 00:30, every 3 minutes at the peaks and 6 to 8 otherwise, less often at
// weekends; trams and buses every 8 to 15 minutes, 20 late on Sundays; each suburban line every
// half hour, hourly on Sundays, two lines sharing the track at a quarter of an hour apart.
extension MilanTransit {
    static let agencyId = "milan-demo"
    static let railAgencyId = "milan-demo-rail"

    /// "05:40" → seconds; hours may pass 24.
    private static func t(_ clock: String) -> Int {
        let parts = clock.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60
    }

    private static func w(_ from: String, _ to: String, every minutes: Int) -> MilanTransitLine.Window {
        .init(start: t(from), end: t(to), headway: minutes * 60)
    }

    static let metro = MilanTransitLine.Vehicle(kilometresPerHour: 35, detour: 1.1, dwell: 25, shortestRun: 50)
    static let tram = MilanTransitLine.Vehicle(kilometresPerHour: 15, detour: 1.25, dwell: 20, shortestRun: 40)
    static let bus = MilanTransitLine.Vehicle(kilometresPerHour: 14, detour: 1.3, dwell: 20, shortestRun: 40)
    static let train = MilanTransitLine.Vehicle(kilometresPerHour: 40, detour: 1.1, dwell: 30, shortestRun: 90)

    static let metroService: [(serviceId: String, windows: [MilanTransitLine.Window])] = [
        ("WD", [w("05:40", "07:00", every: 7), w("07:00", "09:30", every: 3), w("09:30", "16:30", every: 6),
                w("16:30", "19:30", every: 3), w("19:30", "21:00", every: 6), w("21:00", "24:31", every: 8)]),
        ("SA", [w("05:40", "07:30", every: 8), w("07:30", "20:00", every: 5), w("20:00", "24:31", every: 8)]),
        ("SU", [w("05:40", "09:00", every: 10), w("09:00", "20:00", every: 7), w("20:00", "24:31", every: 10)]),
    ]

    static let m3Service: [(serviceId: String, windows: [MilanTransitLine.Window])] = [
        ("WD", [w("05:40", "07:00", every: 8), w("07:00", "09:30", every: 4), w("09:30", "16:30", every: 7),
                w("16:30", "19:30", every: 4), w("19:30", "21:00", every: 7), w("21:00", "24:31", every: 9)]),
        ("SA", [w("05:40", "07:30", every: 9), w("07:30", "20:00", every: 6), w("20:00", "24:31", every: 9)]),
        ("SU", [w("05:40", "09:00", every: 10), w("09:00", "20:00", every: 8), w("20:00", "24:31", every: 10)]),
    ]

    static let tramService: [(serviceId: String, windows: [MilanTransitLine.Window])] = [
        ("WD", [w("05:30", "07:00", every: 12), w("07:00", "09:30", every: 8), w("09:30", "16:30", every: 10),
                w("16:30", "19:30", every: 8), w("19:30", "24:31", every: 15)]),
        ("SA", [w("05:30", "07:30", every: 15), w("07:30", "20:00", every: 10), w("20:00", "24:31", every: 15)]),
        ("SU", [w("06:00", "09:00", every: 20), w("09:00", "20:00", every: 12), w("20:00", "24:31", every: 20)]),
    ]

    static let busService: [(serviceId: String, windows: [MilanTransitLine.Window])] = [
        ("WD", [w("05:45", "07:00", every: 15), w("07:00", "09:30", every: 8), w("09:30", "16:30", every: 10),
                w("16:30", "19:30", every: 8), w("19:30", "24:00", every: 15)]),
        ("SA", [w("06:00", "08:00", every: 15), w("08:00", "20:00", every: 12), w("20:00", "24:00", every: 15)]),
        ("SU", [w("06:30", "20:00", every: 15), w("20:00", "24:00", every: 20)]),
    ]

    static let railService: [(serviceId: String, windows: [MilanTransitLine.Window])] = [
        ("WD", [w("05:30", "24:00", every: 30)]),
        ("SA", [w("06:00", "24:00", every: 30)]),
        ("SU", [w("07:00", "24:00", every: 60)]),
    ]

    static let m1Stops = [
        "MM_SESTO_1_MAGGIO", "MM_SESTO_RONDO", "MM_SESTO_MARELLI", "MM_VILLA_SAN_GIOVANNI", "MM_PRECOTTO", "MM_GORLA", "MM_TURRO",
        "MM_ROVERETO", "MM_PASTEUR", "MM_LORETO_M1", "MM_LIMA", "MM_PORTA_VENEZIA", "MM_PALESTRO", "MM_SAN_BABILA", "MM_DUOMO_M1",
        "MM_CORDUSIO", "MM_CAIROLI", "MM_CADORNA_M1", "MM_CONCILIAZIONE", "MM_PAGANO", "MM_WAGNER", "MM_DE_ANGELI", "MM_GAMBARA",
        "MM_BANDE_NERE", "MM_PRIMATICCIO", "MM_INGANNI", "MM_BISCEGLIE",
    ]
    static let m2Stops = [
        "MM_CASCINA_GOBBA", "MM_CRESCENZAGO", "MM_CIMIANO", "MM_UDINE", "MM_LAMBRATE", "MM_PIOLA", "MM_LORETO_M2", "MM_CAIAZZO",
        "MM_CENTRALE_M2", "MM_GIOIA", "MM_GARIBALDI", "MM_MOSCOVA", "MM_LANZA", "MM_CADORNA_M2", "MM_SANT_AMBROGIO",
        "MM_SANT_AGOSTINO", "MM_PORTA_GENOVA", "MM_ROMOLO", "MM_FAMAGOSTA",
    ]
    static let m3Stops = [
        "MM_COMASINA", "MM_AFFORI_FN", "MM_AFFORI_CENTRO", "MM_DERGANO", "MM_MACIACHINI", "MM_ZARA", "MM_SONDRIO", "MM_CENTRALE_M3",
        "MM_REPUBBLICA", "MM_TURATI", "MM_MONTENAPOLEONE", "MM_DUOMO_M3", "MM_MISSORI", "MM_CROCETTA", "MM_PORTA_ROMANA", "MM_LODI",
        "MM_BRENTA", "MM_CORVETTO", "MM_PORTO_DI_MARE", "MM_ROGOREDO", "MM_SAN_DONATO",
    ]
    static let passanteStops = [
        "BOVISA", "RL_LANCETTI", "RL_GARIBALDI", "RL_REPUBBLICA", "RL_PORTA_VENEZIA", "RL_DATEO", "RL_PORTA_VITTORIA",
    ]
    static let cadornaStops = ["RL_CADORNA", "RL_DOMODOSSOLA", "RL_BULLONA", "BOVISA"]

    static let lines: [MilanTransitLine] = [
        MilanTransitLine(routeId: "M1", agencyId: agencyId, shortName: "M1", longName: "Sesto 1° Maggio FS – Bisceglie",
                         description: "Metro line 1 (red). Demo data: the Rho Fiera branch is left out.",
                         routeType: 1, colour: "E3001B", textColour: "FFFFFF", stops: m1Stops, headsigns: ("Bisceglie", "Sesto 1° Maggio FS"),
                         vehicle: metro, schedule: .trips, service: metroService),
        MilanTransitLine(routeId: "M2", agencyId: agencyId, shortName: "M2", longName: "Cascina Gobba – Famagosta",
                         description: "Metro line 2 (green). Demo data: the Cologno, Gessate, Assago and Abbiategrasso branches are left out.",
                         routeType: 1, colour: "00A04F", textColour: "FFFFFF", stops: m2Stops, headsigns: ("Famagosta", "Cascina Gobba"),
                         vehicle: metro, schedule: .frequencies(exactTimes: true), service: metroService),
        MilanTransitLine(routeId: "M3", agencyId: agencyId, shortName: "M3", longName: "Comasina – San Donato",
                         description: "Metro line 3 (yellow).",
                         routeType: 1, colour: "FCBE00", textColour: "000000", stops: m3Stops, headsigns: ("San Donato", "Comasina"),
                         vehicle: metro, schedule: .frequencies(exactTimes: false), service: m3Service),
        MilanTransitLine(routeId: "T33", agencyId: agencyId, shortName: "33", longName: "Lambrate FS – Viale Lunigiana",
                         description: "Tram 33 through Città Studi and Politecnico's Leonardo campus to the Centrale.",
                         routeType: 0, colour: "F28C28", textColour: "000000",
                         stops: ["SF_LAMBRATE", "SF_PACINI", "SF_LEONARDO", "SF_ABRUZZI", "SF_VITRUVIO", "SF_DUCA_D_AOSTA", "SF_TONALE", "SF_LUNIGIANA"],
                         headsigns: ("Viale Lunigiana", "Lambrate FS"), vehicle: tram, schedule: .trips, service: tramService),
        MilanTransitLine(routeId: "T19", agencyId: agencyId, shortName: "19", longName: "Lambrate FS – Porta Venezia",
                         description: "Tram 19 from Lambrate past Politecnico's Leonardo campus. Demo data: the western part of the line is left out.",
                         routeType: 0, colour: "F28C28", textColour: "000000",
                         stops: ["SF_LAMBRATE", "SF_PACINI", "SF_LEONARDO", "SF_PASCOLI", "SF_EUSTACHI", "SF_MORGAGNI", "SF_OBERDAN"],
                         headsigns: ("Porta Venezia", "Lambrate FS"), vehicle: tram, schedule: .frequencies(exactTimes: true), service: tramService),
        MilanTransitLine(routeId: "B92", agencyId: agencyId, shortName: "92", longName: "Bovisa (Via Lambruschini) – Garibaldi FS",
                         description: "Bus 92 between Politecnico's Bovisa campuses and Garibaldi. Demo data: a part of the line only.",
                         routeType: 3, colour: "1D5CA8", textColour: "FFFFFF",
                         stops: ["SF_LAMBRUSCHINI", "BOVISA", "SF_COSENZ", "SF_DERGANO", "SF_MACIACHINI", "SF_FARINI", "SF_GARIBALDI"],
                         headsigns: ("Garibaldi FS", "Bovisa"), vehicle: bus, schedule: .frequencies(exactTimes: false), service: busService,
                         timed: ["SF_LAMBRUSCHINI", "BOVISA", "SF_MACIACHINI", "SF_GARIBALDI"]),
        MilanTransitLine(routeId: "S1", agencyId: railAgencyId, shortName: "S1", longName: "Bovisa – Porta Vittoria",
                         description: "Suburban line S1 through the Passante. Demo data: only its section in Milan.",
                         routeType: 2, colour: "E2231A", textColour: "FFFFFF", stops: passanteStops, headsigns: ("Porta Vittoria", "Bovisa"),
                         vehicle: train, schedule: .trips, service: railService),
        MilanTransitLine(routeId: "S2", agencyId: railAgencyId, shortName: "S2", longName: "Bovisa – Porta Vittoria",
                         description: "Suburban line S2 through the Passante. Demo data: only its section in Milan.",
                         routeType: 2, colour: "009A93", textColour: "FFFFFF", stops: passanteStops, headsigns: ("Porta Vittoria", "Bovisa"),
                         vehicle: train, schedule: .trips, service: railService, offset: 15 * 60),
        MilanTransitLine(routeId: "S3", agencyId: railAgencyId, shortName: "S3", longName: "Milano Cadorna – Bovisa",
                         description: "Suburban line S3 from Cadorna. Demo data: only its section in Milan.",
                         routeType: 2, colour: "A6192E", textColour: "FFFFFF", stops: cadornaStops, headsigns: ("Bovisa", "Milano Cadorna"),
                         vehicle: train, schedule: .trips, service: railService, offset: 7 * 60),
        MilanTransitLine(routeId: "S4", agencyId: railAgencyId, shortName: "S4", longName: "Milano Cadorna – Bovisa",
                         description: "Suburban line S4 from Cadorna. Demo data: only its section in Milan.",
                         routeType: 2, colour: "7AB800", textColour: "000000", stops: cadornaStops, headsigns: ("Bovisa", "Milano Cadorna"),
                         vehicle: train, schedule: .trips, service: railService, offset: 22 * 60),
    ]
}
