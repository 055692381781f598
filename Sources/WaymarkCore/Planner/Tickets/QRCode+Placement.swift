import Foundation

extension QRCode {
    /// The modules of one symbol while it is built: which are dark, and which belong to a
    /// function pattern (finders, timing, alignment, format and version areas) that data skips.
    struct Grid {
        let version: Int
        let size: Int
        var dark: [Bool]
        var function: [Bool]

        /// A symbol with every function pattern drawn; the format areas are reserved light
        /// until a mask is chosen.
        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            dark = Array(repeating: false, count: size * size)
            function = dark
            drawTiming()
            for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(centreX: x, centreY: y) }
            drawAlignment()
            drawFormat(bits: 0)
            set(x: 8, y: size - 8, dark: true)
            drawVersion()
        }

        func isDark(x: Int, y: Int) -> Bool { dark[y * size + x] }

        private mutating func set(x: Int, y: Int, dark value: Bool) {
            dark[y * size + x] = value
            function[y * size + x] = true
        }

        /// Row 6 and column 6 alternate dark and light so a reader can count the module pitch.
        private mutating func drawTiming() {
            for i in 0..<size {
                set(x: i, y: 6, dark: i % 2 == 0)
                set(x: 6, y: i, dark: i % 2 == 0)
            }
        }

        /// A 7 × 7 finder (dark ring, light ring, dark 3 × 3 centre) with its light separator,
        /// drawn as rings around the centre and clipped at the symbol's edge.
        private mutating func drawFinder(centreX: Int, centreY: Int) {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = centreX + dx, y = centreY + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let ring = max(abs(dx), abs(dy))
                    set(x: x, y: y, dark: ring != 2 && ring != 4)
                }
            }
        }

        /// Centres of the alignment patterns on each axis: 6, then positions stepping back from
        /// the far edge less 7 by the span over the gaps, rounded up to an even step (version 32
        /// alone rounds down, as the standard's table has it); the first gap takes what is left.
        static func alignmentPositions(version: Int) -> [Int] {
            guard version >= 2 else { return [] }
            let count = version / 7 + 2
            let last = 4 * version + 10
            let span = last - 6
            var step = (span + count - 2) / (count - 1)
            step += step % 2
            if version == 32 { step = 26 }
            return [6] + (1..<count).map { last - (count - 1 - $0) * step }
        }

        /// 5 × 5 patterns that let a reader follow a bent or skewed symbol; none where a finder is.
        private mutating func drawAlignment() {
            let positions = Self.alignmentPositions(version: version)
            for cy in positions {
                for cx in positions {
                    let nearFinder = (cx == 6 && cy == 6) || (cx == 6 && cy == positions.last) || (cx == positions.last && cy == 6)
                    if nearFinder { continue }
                    for dy in -2...2 {
                        for dx in -2...2 { set(x: cx + dx, y: cy + dy, dark: max(abs(dx), abs(dy)) != 1) }
                    }
                }
            }
        }

        /// Both copies of the 15 format bits, most significant bit first: along row 8 from the
        /// left edge then up column 8 beside the top-left finder; and up column 8 from the
        /// bottom edge then along row 8 to the right edge.
        mutating func drawFormat(bits: Int) {
            func bit(_ i: Int) -> Bool { bits >> i & 1 == 1 }
            for i in 0...5 { set(x: 8, y: i, dark: bit(i)) }
            set(x: 8, y: 7, dark: bit(6))
            set(x: 8, y: 8, dark: bit(7))
            set(x: 7, y: 8, dark: bit(8))
            for i in 9..<15 { set(x: 14 - i, y: 8, dark: bit(i)) }
            for i in 0..<8 { set(x: size - 1 - i, y: 8, dark: bit(i)) }
            for i in 8..<15 { set(x: 8, y: size - 15 + i, dark: bit(i)) }
        }

        /// Versions 7 and up carry their number twice, as 6 × 3 blocks beside the finders at
        /// the top right and the bottom left, because the timing count is unreliable that large.
        private mutating func drawVersion() {
            guard version >= 7 else { return }
            let bits = QRCode.versionBits(version: version)
            for i in 0..<18 {
                let on = bits >> i & 1 == 1
                let across = size - 11 + i % 3, along = i / 3
                set(x: across, y: along, dark: on)
                set(x: along, y: across, dark: on)
            }
        }

        /// Fills the data modules two columns at a time from the right edge, going up then down
        /// in turn, the right module of each pair first; column 6 (timing) is stepped over.
        /// Codeword bits go most significant first; the few modules left over hold zero bits.
        mutating func place(_ codewords: [UInt8]) {
            let bitCount = codewords.count * 8
            var next = 0
            var right = size - 1
            var upward = true
            while right > 0 {
                if right == 6 { right = 5 }
                for step in 0..<size {
                    let y = upward ? size - 1 - step : step
                    for x in stride(from: right, through: right - 1, by: -1) where !function[y * size + x] {
                        if next < bitCount { dark[y * size + x] = codewords[next / 8] >> (7 - next % 8) & 1 == 1 }
                        next += 1
                    }
                }
                upward.toggle()
                right -= 2
            }
            assert(next - bitCount >= 0 && next - bitCount < 8, "the data area must hold the codewords with under a byte to spare")
        }
    }
}
