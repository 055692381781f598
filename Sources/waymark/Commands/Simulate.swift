import ArgumentParser
import Foundation
import WaymarkClient

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Emulate a sensor gateway: play a realistic campus day through the ingest API (PRK-3).")

    @Option(help: "The Waymark server, e.g. http://localhost:8080.")
    var server: String

    @Option(help: "A gateway secret from 'waymark gateway create'.")
    var gatewayKey: String

    @Option(help: "Simulated seconds per real second.")
    var speed: Double = 60

    @Option(help: "Site code to simulate; the first site when omitted.")
    var site: String?

    @Option(help: "Site-local time to start the simulated day at (HH:MM); now when omitted.")
    var start: String?

    @Option(help: "Real seconds between steps; each step sends the changes of its stretch of campus time.")
    var interval: Double = 0.5

    @Option(help: "Stop after this many real seconds; runs until interrupted when omitted.")
    var duration: Double?

    func validate() throws {
        guard URL(string: server)?.scheme?.hasPrefix("http") == true else { throw ValidationError("--server must be an http(s) URL.") }
        guard speed > 0, speed <= 100_000 else { throw ValidationError("--speed must be between 0 and 100000.") }
        guard interval >= 0.01, interval <= 60 else { throw ValidationError("--interval must be between 0.01 and 60 seconds.") }
        if let start, parseMinute(start) == nil { throw ValidationError("--start must look like 06:30.") }
    }

    func run() async throws {
        let client = WaymarkClient(serverURL: URL(string: server)!, gatewayKey: gatewayKey)
        // --start is a wall-clock time today, in the server's time zone for the site.
        var simulatedStart: Date?
        if let minute = start.flatMap(parseMinute) {
            let sites = try await client.sites()
            let zone = (site.flatMap { code in sites.first { $0.code == code } } ?? sites.first)
                .flatMap { TimeZone(identifier: $0.timeZone) } ?? .current
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            simulatedStart = calendar.startOfDay(for: Date()).addingTimeInterval(minute * 60)
        }
        var sim = GatewayEmulator(client: client, speed: speed, siteCode: site, simulatedStart: simulatedStart,
                                  duration: duration, progress: .line)
        sim.tick = .milliseconds(Int(interval * 1000))
        let totals = try await sim.run()
        print("Sent \(totals.sent) events, \(totals.accepted) accepted, \(totals.failedRequests) failed requests, "
              + "\(totals.retriedRequests) retried; slowest request \(String(format: "%.2f", totals.slowestRequest)) s."
              + (totals.lastError.map { " Last error: \($0)" } ?? ""))
    }

    private func parseMinute(_ text: String) -> Double? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else { return nil }
        return Double(parts[0] * 60 + parts[1])
    }
}
