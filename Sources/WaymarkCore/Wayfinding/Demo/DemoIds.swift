/// Stable UUIDs for generated demo features: the same name gives the same id on every machine
/// and every run, so links to a demo room keep working after a restart.
enum DemoIds {
    static func uuid(_ name: String) -> String {
        // Two 64-bit FNV-1a hashes with different offsets make 128 bits.
        func fnv(_ seed: UInt64) -> UInt64 {
            var h = seed
            for b in name.utf8 { h ^= UInt64(b); h = h &* 0x100_0000_01B3 }
            return h
        }
        let a = fnv(0xCBF2_9CE4_8422_2325), b = fnv(0x8422_2325_CBF2_9CE4 ^ 0x5741_594D)
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: a >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: b >> (8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: made by rule of the application
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}
