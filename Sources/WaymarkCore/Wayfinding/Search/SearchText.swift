import Foundation

/// How search reads text: lower case, accents folded ("Südpool" → "sudpool"), split at anything
/// that is not a letter or digit, and letters split from digits ("jb102" → "jb", "102") so that
/// "JB-102", "JB 102" and "jb102" are the same words.
public enum SearchText {
    public static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .replacingOccurrences(of: "ß", with: "ss")
    }

    public static func words(_ s: String) -> [String] {
        var out: [String] = []
        var current = ""
        var digits = false
        for ch in fold(s) {
            let isDigit = ch.isASCII && ch.isNumber
            if ch.isLetter || isDigit {
                if !current.isEmpty && digits != isDigit { out.append(current); current = "" }
                current.append(ch)
                digits = isDigit
            } else if !current.isEmpty {
                out.append(current); current = ""
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Letters and digits only: "JB-102" → "jb102", the form a room number is typed in.
    static func compact(_ s: String) -> String { words(s).joined() }
}

/// Optimal string alignment distance (Levenshtein plus swapping two neighbours), stopping early
/// once it exceeds `limit`: "pfua" is one edit from "pfau", "libary" one from "library".
enum EditDistance {
    static func within(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
        if abs(a.count - b.count) > limit { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            var rowMin = cur[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, prev2[j - 2] + 1) }
                cur[j] = v
                rowMin = min(rowMin, v)
            }
            if rowMin > limit { return nil }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count] <= limit ? prev[b.count] : nil
    }
}
