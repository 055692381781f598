import Foundation

/// A calendar's colour, `#RRGGBB` in sRGB, and which text reads on it (PLN-1): WCAG 2's
/// relative luminance and contrast ratio decide between black and white.
public struct CalendarColour: Hashable, Sendable {
    public var red: Int
    public var green: Int
    public var blue: Int

    /// Exactly `#` and six hex digits, in either case.
    public init?(_ text: String) {
        guard text.count == 7, text.first == "#", let value = Int(text.dropFirst(), radix: 16),
              text.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        red = value >> 16 & 0xff
        green = value >> 8 & 0xff
        blue = value & 0xff
    }

    public var hex: String { String(format: "#%02x%02x%02x", red, green, blue) }

    /// WCAG 2.x relative luminance.
    public var luminance: Double {
        func channel(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
    }

    /// The contrast ratio of two colours, 1…21.
    public static func contrast(_ a: CalendarColour, _ b: CalendarColour) -> Double {
        let (x, y) = (a.luminance, b.luminance)
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    public static let black = CalendarColour("#000000")!
    public static let white = CalendarColour("#ffffff")!

    /// Black or white, whichever contrasts more with the colour.
    public var text: CalendarColour { Self.contrast(self, .black) >= Self.contrast(self, .white) ? .black : .white }

    /// Colours new calendars cycle through; the first is the "Personal" calendar's.
    public static let palette = ["#1a73e8", "#0b8043", "#d50000", "#f4511e", "#8e24aa", "#616161"].compactMap(CalendarColour.init)
}
