import Foundation

/// A progress bar on standard error: redrawn in place on a terminal, one line per stage
/// otherwise (a log keeps every stage).
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let terminal = isatty(STDERR_FILENO) == 1
    private var lastStage = ""

    func update(_ stage: String, _ fraction: Double) {
        lock.lock(); defer { lock.unlock() }
        let f = min(max(fraction, 0), 1)
        let width = 30
        let filled = Int((f * Double(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\(bar) \(String(format: "%3d", Int(f * 100)))%  \(stage)"
        if terminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line + (f >= 1 ? "\n" : "")).utf8))
        } else if stage != lastStage {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        lastStage = stage
    }
}
