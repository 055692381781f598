import Foundation

/// A stop, platform or station of the demo network, as stops.txt writes it.
struct MilanTransitStop: Sendable {
    var id: String
    var name: String
    var latitude: Double
    var longitude: Double
    /// The station a platform belongs to (`parent_station`).
    var parent: String? = nil
    /// A station (`location_type` 1) rather than a stop or platform.
    var isStation = false
    var platformCode: String? = nil

    var position: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

// The stops of the demo network. Metro stations are at their real positions (to about 100 m);
// the eight named in `MilanPlaces` and the three surface stops of Politecnico's campuses keep the
// gazetteer's names and positions exactly, so a place picked there is a stop here (for a
// station two lines share, the station itself; its platforms lie a few dozen metres off). Metro stops
// are named as the station signs read, with the lines of this feed ("Loreto M1 M2"); a station
// two lines share is a parent station with one platform per line, so changing lines there takes
// the minutes transfers.txt gives it. Tram and bus stops between the named ones are placed along
// the streets they are named after, less exactly.
extension MilanTransit {
    static let stops: [MilanTransitStop] = metroStops + surfaceStops + railStops

    /// A station shared by several lines: the station, where the gazetteer has it, and one
    /// platform per line under its own street, a few dozen metres apart.
    private static func interchange(_ id: String, _ name: String, _ latitude: Double, _ longitude: Double,
                                    platforms: [(line: String, latitude: Double, longitude: Double)]) -> [MilanTransitStop] {
        [MilanTransitStop(id: id, name: name, latitude: latitude, longitude: longitude, isStation: true)]
            + platforms.map { MilanTransitStop(id: "\(id)_\($0.line)", name: name, latitude: $0.latitude, longitude: $0.longitude, parent: id, platformCode: $0.line) }
    }

    private static func stop(_ id: String, _ name: String, _ latitude: Double, _ longitude: Double) -> MilanTransitStop {
        MilanTransitStop(id: id, name: name, latitude: latitude, longitude: longitude)
    }

    static let metroStops: [MilanTransitStop] =
        interchange("MM_LORETO", "Loreto M1 M2", 45.485778, 9.214807, platforms: [("M1", 45.486000, 9.215600), ("M2", 45.485600, 9.216400)])
        + interchange("MM_CADORNA", "Cadorna M1 M2", 45.468031, 9.175954, platforms: [("M1", 45.468200, 9.176400), ("M2", 45.467800, 9.175600)])
        + interchange("MM_DUOMO", "Duomo M1 M3", 45.464326, 9.187010, platforms: [("M1", 45.464500, 9.188300), ("M3", 45.464100, 9.189200)])
        + interchange("MM_CENTRALE", "Centrale M2 M3", 45.487263, 9.202790, platforms: [("M2", 45.485000, 9.202900), ("M3", 45.486300, 9.203300)])
        + [
            // M1, Sesto 1° Maggio FS to Bisceglie.
            stop("MM_SESTO_1_MAGGIO", "Sesto 1° Maggio FS M1", 45.541560, 9.238350),
            stop("MM_SESTO_RONDO", "Sesto Rondò M1", 45.534200, 9.231280),
            stop("MM_SESTO_MARELLI", "Sesto Marelli M1", 45.523560, 9.227960),
            stop("MM_VILLA_SAN_GIOVANNI", "Villa San Giovanni M1", 45.517450, 9.226130),
            stop("MM_PRECOTTO", "Precotto M1", 45.512150, 9.224490),
            stop("MM_GORLA", "Gorla M1", 45.506620, 9.222870),
            stop("MM_TURRO", "Turro M1", 45.500910, 9.221140),
            stop("MM_ROVERETO", "Rovereto M1", 45.495780, 9.219570),
            stop("MM_PASTEUR", "Pasteur M1", 45.490910, 9.218160),
            stop("MM_LIMA", "Lima M1", 45.480394, 9.210951),
            stop("MM_PORTA_VENEZIA", "Porta Venezia M1", 45.474710, 9.205680),
            stop("MM_PALESTRO", "Palestro M1", 45.471420, 9.201940),
            stop("MM_SAN_BABILA", "San Babila M1", 45.466420, 9.197570),
            stop("MM_CORDUSIO", "Cordusio M1", 45.465390, 9.186350),
            stop("MM_CAIROLI", "Cairoli M1", 45.468200, 9.182250),
            stop("MM_CONCILIAZIONE", "Conciliazione M1", 45.467490, 9.166300),
            stop("MM_PAGANO", "Pagano M1", 45.468280, 9.160770),
            stop("MM_WAGNER", "Wagner M1", 45.467840, 9.155290),
            stop("MM_DE_ANGELI", "De Angeli M1", 45.466560, 9.149870),
            stop("MM_GAMBARA", "Gambara M1", 45.464990, 9.142950),
            stop("MM_BANDE_NERE", "Bande Nere M1", 45.461330, 9.136950),
            stop("MM_PRIMATICCIO", "Primaticcio M1", 45.459520, 9.129610),
            stop("MM_INGANNI", "Inganni M1", 45.457560, 9.122250),
            stop("MM_BISCEGLIE", "Bisceglie M1", 45.455310, 9.113350),
            // M2, Cascina Gobba to Famagosta.
            stop("MM_CASCINA_GOBBA", "Cascina Gobba M2", 45.511140, 9.260520),
            stop("MM_CRESCENZAGO", "Crescenzago M2", 45.505210, 9.248220),
            stop("MM_CIMIANO", "Cimiano M2", 45.500040, 9.241420),
            stop("MM_UDINE", "Udine M2", 45.490808, 9.236336),
            stop("MM_LAMBRATE", "Lambrate FS M2", 45.485179, 9.235557),
            stop("MM_PIOLA", "Piola M2", 45.480850, 9.224028),
            stop("MM_CAIAZZO", "Caiazzo M2", 45.485250, 9.209100),
            stop("MM_GIOIA", "Gioia M2", 45.484620, 9.195230),
            stop("MM_GARIBALDI", "Garibaldi FS M2", 45.483510, 9.186710),
            stop("MM_MOSCOVA", "Moscova M2", 45.477500, 9.184710),
            stop("MM_LANZA", "Lanza M2", 45.471960, 9.182730),
            stop("MM_SANT_AMBROGIO", "Sant'Ambrogio M2", 45.461850, 9.173250),
            stop("MM_SANT_AGOSTINO", "Sant'Agostino M2", 45.458340, 9.169770),
            stop("MM_PORTA_GENOVA", "Porta Genova FS M2", 45.452730, 9.169720),
            stop("MM_ROMOLO", "Romolo M2", 45.443730, 9.167670),
            stop("MM_FAMAGOSTA", "Famagosta M2", 45.437190, 9.167950),
            // M3, Comasina to San Donato.
            stop("MM_COMASINA", "Comasina M3", 45.528350, 9.163870),
            stop("MM_AFFORI_FN", "Affori FN M3", 45.520870, 9.169010),
            stop("MM_AFFORI_CENTRO", "Affori Centro M3", 45.513580, 9.174170),
            stop("MM_DERGANO", "Dergano M3", 45.505640, 9.179780),
            stop("MM_MACIACHINI", "Maciachini M3", 45.497880, 9.184780),
            stop("MM_ZARA", "Zara M3", 45.492250, 9.192460),
            stop("MM_SONDRIO", "Sondrio M3", 45.489600, 9.201090),
            stop("MM_REPUBBLICA", "Repubblica M3", 45.480380, 9.198780),
            stop("MM_TURATI", "Turati M3", 45.474550, 9.194810),
            stop("MM_MONTENAPOLEONE", "Montenapoleone M3", 45.470270, 9.192490),
            stop("MM_MISSORI", "Missori M3", 45.460570, 9.188180),
            stop("MM_CROCETTA", "Crocetta M3", 45.455970, 9.195690),
            stop("MM_PORTA_ROMANA", "Porta Romana M3", 45.451520, 9.203000),
            stop("MM_LODI", "Lodi T.I.B.B. M3", 45.446980, 9.209750),
            stop("MM_BRENTA", "Brenta M3", 45.443010, 9.218010),
            stop("MM_CORVETTO", "Corvetto M3", 45.440300, 9.223850),
            stop("MM_PORTO_DI_MARE", "Porto di Mare M3", 45.437170, 9.230410),
            stop("MM_ROGOREDO", "Rogoredo FS M3", 45.433660, 9.238490),
            stop("MM_SAN_DONATO", "San Donato M3", 45.428970, 9.256530),
        ]

    static let surfaceStops: [MilanTransitStop] = [
        // Città Studi: trams 19 and 33 between Lambrate and Politecnico's Leonardo campus.
        stop("SF_LAMBRATE", "Lambrate FS (Piazza Bottini)", 45.484300, 9.234000),
        stop("SF_PACINI", "Via Pacini", 45.481700, 9.229800),
        stop("SF_LEONARDO", "Piazza Leonardo da Vinci (Politecnico)", 45.479096, 9.225703),
        // Tram 33 on towards the Centrale and Viale Lunigiana.
        stop("SF_ABRUZZI", "Viale Abruzzi", 45.481200, 9.217200),
        stop("SF_VITRUVIO", "Via Vitruvio", 45.483400, 9.208300),
        stop("SF_DUCA_D_AOSTA", "Stazione Centrale (Piazza Duca d'Aosta)", 45.484900, 9.203600),
        stop("SF_TONALE", "Via Tonale", 45.488600, 9.200300),
        stop("SF_LUNIGIANA", "Viale Lunigiana", 45.491200, 9.203600),
        // Tram 19 on towards Porta Venezia.
        stop("SF_PASCOLI", "Via Pascoli", 45.478300, 9.220000),
        stop("SF_EUSTACHI", "Via Eustachi", 45.477000, 9.213800),
        stop("SF_MORGAGNI", "Via Morgagni", 45.476000, 9.209500),
        stop("SF_OBERDAN", "Porta Venezia (Piazza Oberdan)", 45.474200, 9.206500),
        // Bus 92 from Bovisa to Garibaldi; Bovisa's station square serves the trains too.
        stop("SF_LAMBRUSCHINI", "Via Lambruschini", 45.504000, 9.154500),
        stop("BOVISA", "Bovisa (Politecnico)", 45.502693, 9.159040),
        stop("SF_COSENZ", "Via Durando / Via Cosenz", 45.506224, 9.163256),
        stop("SF_DERGANO", "Piazza Dergano", 45.505000, 9.178000),
        stop("SF_MACIACHINI", "Piazzale Maciachini", 45.497500, 9.185600),
        stop("SF_FARINI", "Via Farini", 45.491500, 9.183800),
        stop("SF_GARIBALDI", "Garibaldi FS (Piazza Freud)", 45.483800, 9.188900),
    ]

    /// The suburban railway: the line from Cadorna to Bovisa and the Passante under the centre.
    static let railStops: [MilanTransitStop] = [
        stop("RL_CADORNA", "Milano Cadorna", 45.468700, 9.175300),
        stop("RL_DOMODOSSOLA", "Milano Domodossola", 45.481500, 9.162400),
        stop("RL_BULLONA", "Milano Bullona", 45.489300, 9.158200),
        stop("RL_LANCETTI", "Milano Lancetti", 45.494800, 9.175600),
        stop("RL_GARIBALDI", "Milano Porta Garibaldi Passante", 45.484800, 9.187800),
        stop("RL_REPUBBLICA", "Milano Repubblica", 45.479900, 9.199400),
        stop("RL_PORTA_VENEZIA", "Milano Porta Venezia", 45.475600, 9.206200),
        stop("RL_DATEO", "Milano Dateo", 45.468000, 9.218700),
        stop("RL_PORTA_VITTORIA", "Milano Porta Vittoria", 45.459600, 9.222800),
    ]

    /// Minutes to change between lines where walking the straight line would undersell it:
    /// between the platforms of an interchange, and from the metro down to the railway.
    /// A row may name a station, which stands for each of its platforms.
    static let transfers: [(from: String, to: String, seconds: Int)] = [
        ("MM_LORETO_M1", "MM_LORETO_M2", 180), ("MM_LORETO_M2", "MM_LORETO_M1", 180),
        ("MM_CADORNA_M1", "MM_CADORNA_M2", 240), ("MM_CADORNA_M2", "MM_CADORNA_M1", 240),
        ("MM_DUOMO_M1", "MM_DUOMO_M3", 180), ("MM_DUOMO_M3", "MM_DUOMO_M1", 180),
        ("MM_CENTRALE_M2", "MM_CENTRALE_M3", 240), ("MM_CENTRALE_M3", "MM_CENTRALE_M2", 240),
        ("MM_CADORNA", "RL_CADORNA", 300), ("RL_CADORNA", "MM_CADORNA", 300),
        ("MM_GARIBALDI", "RL_GARIBALDI", 300), ("RL_GARIBALDI", "MM_GARIBALDI", 300),
        ("MM_REPUBBLICA", "RL_REPUBBLICA", 240), ("RL_REPUBBLICA", "MM_REPUBBLICA", 240),
        ("MM_PORTA_VENEZIA", "RL_PORTA_VENEZIA", 240), ("RL_PORTA_VENEZIA", "MM_PORTA_VENEZIA", 240),
    ]
}
