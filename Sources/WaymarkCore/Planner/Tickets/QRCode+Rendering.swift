import Foundation

extension QRCode {
    /// A standalone SVG: a white square and one path of dark runs, one rectangle per run of
    /// dark modules in a row, in module units so it scales without blurring. `quietZone`
    /// light modules surround the symbol (readers want four); `label` is what a screen
    /// reader announces.
    public func svg(moduleSize: Int = 4, quietZone: Int = 4, label: String? = nil) -> String {
        let margin = max(0, quietZone)
        let side = size + 2 * margin
        let pixels = side * max(1, moduleSize)
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else { x += 1; continue }
                let start = x
                while x < size && isDark(x: x, y: y) { x += 1 }
                path += "M\(start + margin) \(y + margin)h\(x - start)v1h-\(x - start)z"
            }
        }
        let name = Self.xmlEscaped(label ?? "QR code")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" \
            role="img" aria-label="\(name)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// A binary greyscale PGM (P5), black on white: the simplest image file that image tools
    /// and barcode readers open, with no compression to write.
    public func pgm(moduleSize: Int = 8, quietZone: Int = 4) -> Data {
        let scale = max(1, moduleSize)
        let margin = max(0, quietZone)
        let side = (size + 2 * margin) * scale
        var image = Data("P5\n\(side) \(side)\n255\n".utf8)
        image.reserveCapacity(image.count + side * side)
        for y in -margin..<size + margin {
            var line = [UInt8](repeating: 255, count: side)
            for x in 0..<size where isDark(x: x, y: y) {
                let left = (x + margin) * scale
                for column in left..<left + scale { line[column] = 0 }
            }
            for _ in 0..<scale { image.append(contentsOf: line) }
        }
        return image
    }

    private static func xmlEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            // XML 1.0 has no way to write most control characters, even escaped.
            case _ where character.unicodeScalars.contains(where: { $0.value < 0x20 }): result += " "
            default: result.append(character)
            }
        }
        return result
    }
}
