import Foundation

/// A QR code (ISO/IEC 18004, Model 2) for a text, made here so that tickets and check-in codes
/// need no image service or third-party library. The whole text goes in one segment: numeric or
/// alphanumeric when every character allows it (a smaller symbol), otherwise its UTF-8 bytes.
public struct QRCode: Sendable, Hashable {
    /// How much of the symbol may be damaged or hidden and still be read: about 7, 15, 25 or 30%.
    /// More recovery costs room, so the same text needs a larger symbol.
    public enum Correction: Int, Sendable, Hashable, CaseIterable {
        case low, medium, quartile, high
    }

    /// How the text's characters are packed into bits.
    public enum Mode: Sendable, Hashable, CaseIterable {
        /// Digits only, three to 10 bits.
        case numeric
        /// Digits, capitals, space and `$%*+-./:`, two to 11 bits.
        case alphanumeric
        /// Any text, as UTF-8 bytes (no ECI header: readers take UTF-8 when the bytes are valid UTF-8).
        case byte
    }

    /// Why a text cannot be made into a QR code.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// `length` characters (bytes in byte mode) do not fit; `maximum` is the most that would.
        case tooLong(length: Int, maximum: Int, mode: Mode, correction: Correction)
        /// Masks are numbered 0 to 7.
        case invalidMask(Int)

        public var description: String {
            switch self {
            case let .tooLong(length, maximum, mode, _):
                let unit = mode == .byte ? "bytes" : "characters"
                return "The text is \(length) \(unit) long; a QR code at this correction level holds at most \(maximum)."
            case .invalidMask(let mask):
                return "QR code masks are numbered 0 to 7, not \(mask)."
            }
        }
    }

    /// 1 to 40; the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    public let correction: Correction
    public let mode: Mode
    /// The data mask (0–7) that gave the lowest penalty, or the one asked for.
    public let mask: Int
    /// Modules on each side, without the quiet zone.
    public let size: Int
    /// Data then error-correction codewords, interleaved in the order they are placed.
    public let codewords: [UInt8]
    /// Row-major, `true` for dark.
    public let modules: [Bool]

    /// The smallest symbol that holds `text` at `correction`, with the mask that reads best.
    public init(text: String, correction: Correction = .medium) throws {
        try self.init(text: text, correction: correction, forcedMask: nil)
    }

    /// The same, with a given mask instead of the best one (for checking every mask reads).
    public init(text: String, correction: Correction, mask: Int) throws {
        guard (0..<8).contains(mask) else { throw Failure.invalidMask(mask) }
        try self.init(text: text, correction: correction, forcedMask: mask)
    }

    private init(text: String, correction: Correction, forcedMask: Int?) throws {
        let segment = Segment(text)
        guard let version = (1...40).first(where: { segment.bitCount(version: $0) <= Self.dataCodewordCount(version: $0, correction: correction) * 8 })
        else {
            throw Failure.tooLong(length: segment.length, maximum: Self.capacity(version: 40, correction: correction, mode: segment.mode),
                                  mode: segment.mode, correction: correction)
        }
        let data = segment.codewords(version: version, capacity: Self.dataCodewordCount(version: version, correction: correction))
        let codewords = Self.interleavedWithErrorCorrection(data, version: version, correction: correction)
        var grid = Grid(version: version)
        grid.place(codewords)
        let (chosen, masked) = grid.masked(correction: correction, forcedMask: forcedMask)
        self.version = version
        self.correction = correction
        self.mode = segment.mode
        self.mask = chosen
        self.size = masked.size
        self.codewords = codewords
        self.modules = masked.dark
    }

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// The most characters (bytes in byte mode) one symbol of this version and level holds.
    public static func capacity(version: Int, correction: Correction, mode: Mode) -> Int {
        precondition((1...40).contains(version), "QR code versions are 1 to 40")
        let free = dataCodewordCount(version: version, correction: correction) * 8 - 4 - Segment.countBits(mode: mode, version: version)
        switch mode {
        case .numeric: return free / 10 * 3 + (free % 10 >= 7 ? 2 : free % 10 >= 4 ? 1 : 0)
        case .alphanumeric: return free / 11 * 2 + (free % 11 >= 6 ? 1 : 0)
        case .byte: return free / 8
        }
    }
}
