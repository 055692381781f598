import Foundation

/// A venue's features as read from (or written to) an IMDF archive.
public struct IMDFArchive: Sendable {
    public var manifest: [String: JSONValue]
    /// Every feature kept, grouped by type, each group in file order.
    public private(set) var featuresByType: [IMDFFeatureType: [IMDFFeature]]
    private var index: [String: IMDFFeature]

    public init(manifest: [String: JSONValue], features: [IMDFFeature]) {
        self.manifest = manifest
        featuresByType = Dictionary(grouping: features, by: \.type)
        index = Dictionary(features.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func features(_ type: IMDFFeatureType) -> [IMDFFeature] { featuresByType[type] ?? [] }
    public func feature(_ id: String) -> IMDFFeature? { index[id] }
    public var venue: IMDFFeature? { features(.venue).first }

    /// The archive's files: `manifest.json` and one `<type>.geojson` per feature type present,
    /// keys sorted so that the same venue gives the same bytes.
    public func files() throws -> [(name: String, data: Data)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out: [(String, Data)] = []
        var manifest = manifest
        if manifest["version"] == nil { manifest["version"] = .string("1.0.0") }
        if manifest["language"] == nil { manifest["language"] = .string("en") }
        out.append(("manifest.json", try encoder.encode(JSONValue.object(manifest))))
        for type in IMDFFeatureType.allCases {
            // IMDF requires these files even when empty.
            let required: Set<IMDFFeatureType> = [.address, .building, .footprint, .level, .unit, .venue]
            let features = features(type)
            guard !features.isEmpty || required.contains(type) else { continue }
            let collection = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features.map(\.json))])
            out.append(("\(type.rawValue).geojson", try encoder.encode(collection)))
        }
        return out
    }
}
