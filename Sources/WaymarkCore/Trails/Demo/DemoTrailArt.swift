import Foundation

/// The demo's pictures, drawn as SVG: a trailhead scene whose ridge is the trail's own elevation
/// profile, and a plain emblem for each guideline and point of interest with its name.
public enum DemoTrailArt {
    public static func svg(_ subject: DemoPictureSubject, title: String) -> String {
        switch subject {
        case .trailhead(let trail): trailhead(trail, title: title)
        case .guideline(let kind): emblem(title: title, colour: colour(kind), glyph: glyph(kind))
        case .point(let kind): emblem(title: title, colour: colour(kind), glyph: glyph(kind))
        }
    }

    static func trailhead(_ trail: Trail, title: String) -> String {
        let width = 640.0, height = 400.0
        let profile = trail.measures.profile
        let mountains = (profile.lowest ?? 0) > 1_200
        let sky = mountains ? ("#9cc9f0", "#e6f2fb") : ("#f6c58f", "#fdf0dc")
        let far = mountains ? "#7b93ad" : "#c9a27e", near = mountains ? "#3f6b4a" : "#8a9a5b"
        // The ridge: the walked profile spread over the width, scaled into the lower half.
        let samples = 64
        var ridge: [Double] = []
        if let lo = profile.lowest, let hi = profile.highest, let end = profile.distances.last, end > 0 {
            var j = 0
            for k in 0..<samples {
                let d = end * Double(k) / Double(samples - 1)
                while j + 1 < profile.distances.count && profile.distances[j + 1] < d { j += 1 }
                let e = profile.elevations[j]
                ridge.append(hi > lo ? (e - lo) / (hi - lo) : 0.5)
            }
        } else {
            ridge = Array(repeating: 0.5, count: samples)
        }
        let top = height * 0.38, bottom = height * 0.72
        var near_ = "M0 \(Int(height))"
        for (k, v) in ridge.enumerated() {
            near_ += " L\(Int(width * Double(k) / Double(samples - 1))) \(Int(bottom - v * (bottom - top)))"
        }
        near_ += " L\(Int(width)) \(Int(height)) Z"
        let seed = trail.id.utf8.reduce(0) { $0 &+ Int($1) }
        let farRidge = (0...8).map { k in "L\(k * 80) \(150 + ((seed * (k + 3)) % 70))" }.joined(separator: " ")
        let sunX = 120 + seed % 400
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 400" width="640" height="400" role="img" aria-label="\(XMLText.escaped(title))">\
            <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="\(sky.0)"/><stop offset="1" stop-color="\(sky.1)"/></linearGradient></defs>\
            <rect width="640" height="400" fill="url(#s)"/>\
            <circle cx="\(sunX)" cy="80" r="34" fill="#fff6c8" opacity="0.9"/>\
            <path d="M0 400 L0 190 \(farRidge) L640 400 Z" fill="\(far)" opacity="0.75"/>\
            <path d="\(near_)" fill="\(near)"/>\
            <path d="M300 400 C 330 360, 280 330, 320 300" stroke="#e9dcc0" stroke-width="9" fill="none" stroke-linecap="round" opacity="0.9"/>\
            <g fill="#2c4a33">\(trees(seed: seed, count: mountains ? 9 : 4))</g>\
            </svg>
            """
    }

    private static func trees(seed: Int, count: Int) -> String {
        (0..<count).map { k in
            let x = (seed * 37 + k * 71) % 600 + 20, y = 330 + (seed + k * 13) % 50, h = 40 + (k * 17 + seed) % 30
            return "<path d=\"M\(x) \(y - h) L\(x - h / 3) \(y) L\(x + h / 3) \(y) Z\"/>"
        }.joined()
    }

    static func emblem(title: String, colour: String, glyph: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 320" width="320" height="320" role="img" aria-label="\(XMLText.escaped(title))">\
        <rect width="320" height="320" rx="28" fill="\(colour)"/>\
        <g fill="#ffffff" stroke="#ffffff" stroke-linecap="round" stroke-linejoin="round" transform="translate(160 130)">\(glyph)</g>\
        <text x="160" y="272" text-anchor="middle" font-family="system-ui, sans-serif" font-size="22" fill="#ffffff">\(XMLText.escaped(short(title)))</text>\
        </svg>
        """
    }

    private static func short(_ title: String) -> String {
        title.count > 26 ? String(title.prefix(25)) + "…" : title
    }

    private static let paw = "<ellipse cx=\"0\" cy=\"22\" rx=\"34\" ry=\"28\"/><circle cx=\"-38\" cy=\"-18\" r=\"13\"/><circle cx=\"-14\" cy=\"-40\" r=\"13\"/><circle cx=\"14\" cy=\"-40\" r=\"13\"/><circle cx=\"38\" cy=\"-18\" r=\"13\"/>"
    private static let leaf = "<path d=\"M-50 50 C -50 -30, 10 -60, 55 -60 C 55 -10, 30 50, -50 50 Z\"/><path d=\"M-50 50 L30 -30\" stroke=\"#00000033\" stroke-width=\"5\" fill=\"none\"/>"
    private static let pack = "<rect x=\"-40\" y=\"-40\" width=\"80\" height=\"95\" rx=\"18\"/><path d=\"M-22 -40 C -22 -70, 22 -70, 22 -40\" fill=\"none\" stroke-width=\"9\"/><rect x=\"-26\" y=\"5\" width=\"52\" height=\"30\" rx=\"8\" fill=\"#00000022\" stroke=\"none\"/>"
    private static let peak = "<path d=\"M-70 55 L-15 -45 L15 5 L35 -20 L75 55 Z\"/>"
    private static let falls = "<path d=\"M-45 -55 L45 -55\" stroke-width=\"12\"/><path d=\"M-25 -50 L-25 45 M0 -50 L0 55 M25 -50 L25 45\" stroke-width=\"10\" fill=\"none\"/><ellipse cx=\"0\" cy=\"58\" rx=\"60\" ry=\"10\" opacity=\"0.7\"/>"
    private static let marker = "<path d=\"M0 60 C -50 0, -45 -55, 0 -55 C 45 -55, 50 0, 0 60 Z\"/><circle cx=\"0\" cy=\"-18\" r=\"16\" fill=\"#00000033\" stroke=\"none\"/>"

    static func colour(_ kind: SafetyGuideline.Kind) -> String {
        switch kind {
        case .predator: "#a4452c"
        case .dangerousPlant: "#6b3a7d"
        case .ediblePlant: "#3f7d3a"
        case .equipment: "#2f5f8f"
        }
    }

    static func glyph(_ kind: SafetyGuideline.Kind) -> String {
        switch kind {
        case .predator: paw
        case .dangerousPlant, .ediblePlant: leaf
        case .equipment: pack
        }
    }

    static func colour(_ kind: PointOfInterest.Kind) -> String {
        switch kind {
        case .landmark: "#7a5c3e"
        case .scenicOverlook: "#4a6fa5"
        case .waterfall: "#2a7fa8"
        case .plant: "#3f7d3a"
        case .animal: "#9a6a2a"
        }
    }

    static func glyph(_ kind: PointOfInterest.Kind) -> String {
        switch kind {
        case .landmark: marker
        case .scenicOverlook: peak
        case .waterfall: falls
        case .plant: leaf
        case .animal: paw
        }
    }
}
