import Foundation

extension QRCode.Grid {
    /// Whether mask `mask` flips the data module at column `x`, row `y`.
    static func flips(mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    /// The symbol with `mask` applied to the data modules (indices into `dark`) and the
    /// matching format bits drawn.
    private func applying(mask: Int, to data: [Int], correction: QRCode.Correction) -> QRCode.Grid {
        var result = self
        for index in data where Self.flips(mask: mask, x: index % size, y: index / size) {
            result.dark[index].toggle()
        }
        result.drawFormat(bits: QRCode.formatBits(correction: correction, mask: mask))
        return result
    }

    /// The mask asked for, or else the one of eight whose symbol has the lowest penalty (the
    /// first of equals), with its symbol. Masks break up patterns that confuse a reader.
    func masked(correction: QRCode.Correction, forcedMask: Int?) -> (mask: Int, grid: QRCode.Grid) {
        let data = function.indices.filter { !function[$0] }
        if let forcedMask { return (forcedMask, applying(mask: forcedMask, to: data, correction: correction)) }
        var best = (mask: 0, grid: self, penalty: Int.max)
        for mask in 0..<8 {
            let candidate = applying(mask: mask, to: data, correction: correction)
            let penalty = Self.penalty(candidate.dark, size: size)
            if penalty < best.penalty { best = (mask, candidate, penalty) }
        }
        return (best.mask, best.grid)
    }

    /// The standard's four penalty rules summed: long runs of one colour, 2 × 2 blocks of one
    /// colour, shapes that look like a finder, and an uneven share of dark modules.
    static func penalty(_ dark: [Bool], size: Int) -> Int {
        var total = 0
        for index in 0..<size {
            total += linePenalty(dark, start: index * size, step: 1, count: size)
            total += linePenalty(dark, start: index, step: size, count: size)
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let corner = y * size + x
                let colour = dark[corner]
                if dark[corner + 1] == colour, dark[corner + size] == colour, dark[corner + size + 1] == colour { total += 3 }
            }
        }
        var darkCount = 0
        for module in dark where module { darkCount += 1 }
        let cells = size * size
        // 10 points for every full 5% between the dark share and one half.
        total += abs(darkCount * 20 - cells * 10) / cells * 10
        return total
    }

    /// One row or column: 3 points for a run of five of one colour and 1 more for each module
    /// past five; 40 for each dark-light-dark×3-light-dark with four light modules before or
    /// after it (light outside the symbol, where the quiet zone is).
    private static func linePenalty(_ dark: [Bool], start: Int, step: Int, count: Int) -> Int {
        var points = 0
        var runColour = dark[start]
        var runLength = 0
        // The last 11 modules as bits, newest lowest, starting in the light quiet zone.
        var window = 0
        for i in 0..<count + 4 {
            let on = i < count && dark[start + i * step]
            if i < count {
                if on == runColour {
                    runLength += 1
                } else {
                    if runLength >= 5 { points += runLength - 2 }
                    runColour = on
                    runLength = 1
                }
            }
            window = (window << 1 | (on ? 1 : 0)) & 0x7FF
            if window == 0b000_0101_1101 || window == 0b101_1101_0000 { points += 40 }
        }
        if runLength >= 5 { points += runLength - 2 }
        return points
    }
}
