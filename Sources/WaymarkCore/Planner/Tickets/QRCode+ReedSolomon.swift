import Foundation

extension QRCode {
    /// The `count` Reed–Solomon codewords QR codes append to `data`: the remainder of
    /// data·x^count divided by (x − α⁰)(x − α¹)…(x − α^(count−1)) over GF(256).
    public static func errorCorrection(for data: [UInt8], count: Int) -> [UInt8] {
        ReedSolomon.remainder(of: data, degree: count)
    }

    /// The 15 format bits for a level and mask: 5 bits, 10 bits of BCH(15, 5) check, then
    /// XOR 0x5412 so that no combination is all light.
    public static func formatBits(correction: Correction, mask: Int) -> Int {
        // The level's two bits are not in L, M, Q, H order: L 01, M 00, Q 11, H 10.
        let level = [0b01, 0b00, 0b11, 0b10][correction.rawValue]
        return ReedSolomon.withBCHCheck(level << 3 | mask, checkBits: 10, generator: 0b101_0011_0111) ^ 0b101_0100_0001_0010
    }

    /// The 18 version bits of versions 7 and up: the version in 6 bits, then 12 bits of BCH(18, 6) check.
    public static func versionBits(version: Int) -> Int {
        ReedSolomon.withBCHCheck(version, checkBits: 12, generator: 0b1_1111_0010_0101)
    }
}

/// Arithmetic in GF(256) built on the polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), where α = 2
/// generates every non-zero element, so products are sums of logarithms.
enum ReedSolomon {
    /// α^i for i in 0..<510, doubled so that a sum of two logarithms needs no reduction.
    private static let exponent: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            table[index + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    private static let logarithm: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exponent[index])] = index }
        return table
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exponent[logarithm[Int(a)] + logarithm[Int(b)]]
    }

    /// Coefficients of ∏(x − α^i) for i < degree, highest power first (the leading 1 included).
    /// Subtraction is XOR in this field, so each factor is x + α^i.
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for i in 0..<degree {
            let root = exponent[i]
            var next = polynomial + [0]
            for (index, coefficient) in polynomial.enumerated() { next[index + 1] ^= multiply(coefficient, root) }
            polynomial = next
        }
        return polynomial
    }

    /// Long division of data·x^degree by the generator, one data codeword at a time.
    static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
        guard degree > 0 else { return [] }
        let divisor = generator(degree: degree)
        var remainder = [UInt8](repeating: 0, count: degree)
        for codeword in data {
            let factor = codeword ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree { remainder[index] ^= multiply(divisor[index + 1], factor) }
        }
        return remainder
    }

    /// `value` followed by the remainder of value·x^checkBits divided by `generator`, over GF(2).
    static func withBCHCheck(_ value: Int, checkBits: Int, generator: Int) -> Int {
        var remainder = value << checkBits
        for bit in stride(from: bitWidth(remainder) - 1, through: checkBits, by: -1) where remainder >> bit & 1 == 1 {
            remainder ^= generator << (bit - checkBits)
        }
        return value << checkBits | remainder
    }

    private static func bitWidth(_ value: Int) -> Int { Int.bitWidth - value.leadingZeroBitCount }
}
