import Foundation

extension QRCode {
    /// The text as one segment in the densest mode all of its characters allow.
    struct Segment {
        let mode: Mode
        /// Characters in numeric and alphanumeric mode, bytes in byte mode: what the count field holds.
        let length: Int
        private let values: [UInt8]

        /// The 45 characters of alphanumeric mode, in the order of their values.
        static let alphanumericCharacters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

        init(_ text: String) {
            let bytes = Array(text.utf8)
            if bytes.allSatisfy({ (0x30...0x39).contains($0) }) {
                mode = .numeric
                values = bytes.map { $0 - 0x30 }
            } else if let indices = Self.alphanumericValues(bytes) {
                mode = .alphanumeric
                values = indices
            } else {
                mode = .byte
                values = bytes
            }
            length = values.count
        }

        /// Each ASCII byte's alphanumeric value, or nil for the bytes the mode lacks.
        private static let alphanumericTable: [UInt8?] = {
            var table = [UInt8?](repeating: nil, count: 128)
            for (value, character) in alphanumericCharacters.enumerated() { table[Int(character)] = UInt8(value) }
            return table
        }()

        private static func alphanumericValues(_ bytes: [UInt8]) -> [UInt8]? {
            var values: [UInt8] = []
            values.reserveCapacity(bytes.count)
            for byte in bytes {
                guard byte < 128, let value = alphanumericTable[Int(byte)] else { return nil }
                values.append(value)
            }
            return values
        }

        /// Width of the character-count field: larger versions hold longer texts, so they count further.
        static func countBits(mode: Mode, version: Int) -> Int {
            let band = version <= 9 ? 0 : version <= 26 ? 1 : 2
            switch mode {
            case .numeric: return [10, 12, 14][band]
            case .alphanumeric: return [9, 11, 13][band]
            case .byte: return [8, 16, 16][band]
            }
        }

        private var modeIndicator: Int {
            switch mode {
            case .numeric: 0b0001
            case .alphanumeric: 0b0010
            case .byte: 0b0100
            }
        }

        /// Bits for the mode, the count and the characters, before the terminator and padding.
        func bitCount(version: Int) -> Int {
            let count = Self.countBits(mode: mode, version: version)
            guard length < 1 << count else { return .max }
            let body: Int
            switch mode {
            case .numeric: body = length / 3 * 10 + [0, 4, 7][length % 3]
            case .alphanumeric: body = length / 2 * 11 + length % 2 * 6
            case .byte: body = length * 8
            }
            return 4 + count + body
        }

        /// Exactly `capacity` data codewords: the segment, up to four zero bits to end it, zero
        /// bits to a whole byte, then the alternating filler bytes 0xEC 0x11.
        func codewords(version: Int, capacity: Int) -> [UInt8] {
            var bits = BitBuffer()
            bits.append(modeIndicator, count: 4)
            bits.append(length, count: Self.countBits(mode: mode, version: version))
            switch mode {
            case .numeric:
                var start = 0
                while start < length {
                    let group = values[start..<min(start + 3, length)]
                    bits.append(group.reduce(0) { $0 * 10 + Int($1) }, count: [0, 4, 7, 10][group.count])
                    start += 3
                }
            case .alphanumeric:
                var start = 0
                while start + 1 < length {
                    bits.append(Int(values[start]) * 45 + Int(values[start + 1]), count: 11)
                    start += 2
                }
                if start < length { bits.append(Int(values[start]), count: 6) }
            case .byte:
                for value in values { bits.append(Int(value), count: 8) }
            }
            let room = capacity * 8
            precondition(bits.count <= room, "the version was chosen too small")
            bits.append(0, count: min(4, room - bits.count))
            bits.append(0, count: (8 - bits.count % 8) % 8)
            var bytes = bits.bytes
            var filler: UInt8 = 0xEC
            while bytes.count < capacity {
                bytes.append(filler)
                filler = filler == 0xEC ? 0x11 : 0xEC
            }
            return bytes
        }
    }

    /// Bits appended most significant first, read back as whole bytes.
    struct BitBuffer {
        private(set) var bytes: [UInt8] = []
        private(set) var count = 0

        mutating func append(_ value: Int, count width: Int) {
            for shift in stride(from: width - 1, through: 0, by: -1) {
                if count % 8 == 0 { bytes.append(0) }
                if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(0x80 >> (count % 8)) }
                count += 1
            }
        }
    }
}
