import Foundation

extension QRCode {
    /// Error-correction codewords in each block, by level (L, M, Q, H) then version 1–40
    /// (the error-correction characteristics table of ISO/IEC 18004).
    private static let errorCorrectionPerBlock: [[Int]] = [
        [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]

    /// How many blocks the codewords are split into, same layout. Splitting keeps each
    /// Reed–Solomon code within 255 symbols and spreads a local smudge over several blocks.
    private static let blockCount: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
         8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    /// All codewords a version holds: its modules less the function patterns, in whole bytes
    /// (the 0–7 modules left over hold zero bits).
    static func totalCodewordCount(version: Int) -> Int {
        let size = 17 + 4 * version
        // Finders with separators (3 × 64), both copies of the format information and the dark module (31).
        var modules = size * size - 3 * 64 - 31
        // Timing lines run between the separators.
        modules -= 2 * (size - 16)
        if version >= 2 {
            // Alignment patterns are 5 × 5 on an n × n grid less the three finder corners; the
            // 2(n − 2) of them on row or column 6 share 5 modules with the timing line.
            let n = version / 7 + 2
            modules -= 25 * (n * n - 3) - 10 * (n - 2)
        }
        if version >= 7 { modules -= 2 * 18 }
        return modules / 8
    }

    static func dataCodewordCount(version: Int, correction: Correction) -> Int {
        let level = correction.rawValue
        return totalCodewordCount(version: version) - errorCorrectionPerBlock[level][version - 1] * blockCount[level][version - 1]
    }

    /// Splits the data into blocks (the later ones one codeword longer when it does not divide
    /// evenly), adds each block's error correction, and interleaves: the first codeword of every
    /// block, then the second, and so on, data before correction.
    static func interleavedWithErrorCorrection(_ data: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let level = correction.rawValue
        let blocks = blockCount[level][version - 1]
        let eccLength = errorCorrectionPerBlock[level][version - 1]
        let shortLength = data.count / blocks
        let longBlocks = data.count % blocks
        var dataBlocks: [ArraySlice<UInt8>] = []
        var start = 0
        for index in 0..<blocks {
            let length = shortLength + (index >= blocks - longBlocks ? 1 : 0)
            dataBlocks.append(data[start..<start + length])
            start += length
        }
        let eccBlocks = dataBlocks.map { ReedSolomon.remainder(of: Array($0), degree: eccLength) }
        var result: [UInt8] = []
        result.reserveCapacity(totalCodewordCount(version: version))
        for column in 0...shortLength {
            for block in dataBlocks where column < block.count { result.append(block[block.startIndex + column]) }
        }
        for column in 0..<eccLength {
            for block in eccBlocks { result.append(block[column]) }
        }
        return result
    }
}
