/// Places in Milan for the Planner demo (Travlendar+'s city): Politecnico di Milano's campuses,
/// the metro stations near them and a few landmarks, at their real positions (approximate
/// centres for the campuses, the surface stop for a station).
public enum MilanPlaces {
    public static let all: [GazetteerPlace] = [
        .init(name: "Politecnico di Milano – Leonardo campus", kind: .campus, detail: "Piazza Leonardo da Vinci 32, Milan", latitude: 45.4781, longitude: 9.2272),
        .init(name: "Politecnico di Milano – Bovisa La Masa", kind: .campus, detail: "Via La Masa 1, Milan", latitude: 45.5030, longitude: 9.1560),
        .init(name: "Politecnico di Milano – Bovisa Durando", kind: .campus, detail: "Via Durando 10, Milan", latitude: 45.5045, longitude: 9.1640),
        .init(name: "Piazza Leonardo da Vinci (Politecnico)", kind: .station, detail: "Tram and bus stop, Milan", latitude: 45.479096, longitude: 9.225703),
        .init(name: "Piola M2", kind: .station, detail: "Metro, Milan", latitude: 45.480850, longitude: 9.224028),
        .init(name: "Lambrate FS M2", kind: .station, detail: "Metro and railway, Milan", latitude: 45.485179, longitude: 9.235557),
        .init(name: "Lima M1", kind: .station, detail: "Metro, Milan", latitude: 45.480394, longitude: 9.210951),
        .init(name: "Loreto M1 M2", kind: .station, detail: "Metro, Milan", latitude: 45.485778, longitude: 9.214807),
        .init(name: "Udine M2", kind: .station, detail: "Metro, Milan", latitude: 45.490808, longitude: 9.236336),
        .init(name: "Centrale M2 M3", kind: .station, detail: "Metro and railway, Milan", latitude: 45.487263, longitude: 9.202790),
        .init(name: "Bovisa (Politecnico)", kind: .station, detail: "Railway and bus stop, Milan", latitude: 45.502693, longitude: 9.159040),
        .init(name: "Via Durando / Via Cosenz", kind: .station, detail: "Bus stop, Milan", latitude: 45.506224, longitude: 9.163256),
        .init(name: "Cadorna M1 M2", kind: .station, detail: "Metro and railway, Milan", latitude: 45.468031, longitude: 9.175954),
        .init(name: "Duomo M1 M3", kind: .station, detail: "Metro, Milan", latitude: 45.464326, longitude: 9.187010),
        .init(name: "Duomo di Milano", kind: .landmark, detail: "Piazza del Duomo, Milan", latitude: 45.4642, longitude: 9.1916),
        .init(name: "Castello Sforzesco", kind: .landmark, detail: "Piazza Castello, Milan", latitude: 45.4705, longitude: 9.1794),
        .init(name: "Parco Sempione", kind: .landmark, detail: "Milan", latitude: 45.4726, longitude: 9.1757),
        .init(name: "Biblioteca Braidense", kind: .landmark, detail: "Via Brera 28, Milan", latitude: 45.4719, longitude: 9.1879),
        .init(name: "Università Bocconi", kind: .campus, detail: "Via Roberto Sarfatti 25, Milan", latitude: 45.4505, longitude: 9.1890),
        .init(name: "Università degli Studi di Milano", kind: .campus, detail: "Via Festa del Perdono 7, Milan", latitude: 45.4603, longitude: 9.1946),
        .init(name: "Darsena (Navigli)", kind: .landmark, detail: "Piazza XXIV Maggio, Milan", latitude: 45.4526, longitude: 9.1777),
        .init(name: "Ospedale Niguarda", kind: .landmark, detail: "Piazza dell'Ospedale Maggiore 3, Milan", latitude: 45.5097, longitude: 9.1860),
    ]
}
