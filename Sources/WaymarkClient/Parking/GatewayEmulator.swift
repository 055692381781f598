import Foundation
import Logging
import WaymarkAPI
import WaymarkCore

/// The sensor gateway emulator (PRK-3): plays a campus day through the real ingest endpoint.
/// Simulated time runs `speed` times faster than real time; reports carry real timestamps so
/// that the server orders them as it would a real gateway's.
public struct GatewayEmulator: Sendable {
    public enum Progress: Sendable {
        /// A status line on standard error, redrawn in place on a terminal.
        case line
        /// A log line now and then (when running inside the server).
        case quiet(Logger)
    }

    public let client: WaymarkClient
    public var speed: Double
    public var siteCode: String?
    /// The simulated instant to start at; nil starts now.
    public var simulatedStart: Date?
    public var tick: Duration = .milliseconds(500)
    /// Stop after this many real seconds; nil runs until cancelled.
    public var duration: TimeInterval?
    public var progress: Progress
    public var seed: UInt64 = 0x5EED
    /// Most reports in one request.
    public var batchSize = 1000

    public init(client: WaymarkClient, speed: Double, siteCode: String? = nil, simulatedStart: Date? = nil,
                duration: TimeInterval? = nil, progress: Progress) {
        self.client = client
        self.speed = speed
        self.siteCode = siteCode
        self.simulatedStart = simulatedStart
        self.duration = duration
        self.progress = progress
    }

    /// Runs until cancelled or `duration`, logging instead of throwing (for in-process use).
    public func runLogged() async {
        do { try await run() } catch is CancellationError {} catch {
            if case .quiet(let logger) = progress { logger.error("emulator stopped", metadata: ["error": .string("\(error)")]) }
        }
    }

    public struct Totals: Sendable {
        public var sent = 0
        public var accepted = 0
        /// Batches given up after every retry: their reports never reached the server.
        public var failedRequests = 0
        /// Requests that failed and were sent again (the batch is not counted twice).
        public var retriedRequests = 0
        /// The longest a batch took, retries included, in seconds.
        public var slowestRequest: TimeInterval = 0
        public var lastError: String?
    }

    /// Waits before each retry of a batch whose request failed in transit or was refused for
    /// the moment (429, 5xx). A real gateway buffers and resends; the server's sequence check
    /// makes a resent report harmless.
    public var retryDelays: [Duration] = [.milliseconds(200), .seconds(1), .seconds(3)]

    public static func isTransient(_ error: any Error) -> Bool {
        switch error as? WaymarkClientError {
        case .unreachable: true
        case .problem(let status, _, _, _), .unexpectedStatus(let status): status == 429 || status >= 500
        case nil: !(error is CancellationError)
        }
    }

    private func send(_ batch: [SensorReport], totals: inout Totals) async throws {
        let started = ContinuousClock.now
        defer { totals.slowestRequest = max(totals.slowestRequest, (ContinuousClock.now - started) / .seconds(1)) }
        var attempt = 0
        while true {
            do {
                let result = try await client.ingest(batch)
                totals.sent += batch.count
                totals.accepted += result.accepted
                return
            } catch {
                totals.lastError = String(describing: error)
                guard Self.isTransient(error), attempt < retryDelays.count else {
                    totals.failedRequests += 1
                    return
                }
                totals.retriedRequests += 1
                try await Task.sleep(for: retryDelays[attempt])
                attempt += 1
            }
        }
    }

    @discardableResult
    public func run() async throws -> Totals {
        let sites = try await client.sites()
        guard let site = siteCode.flatMap({ code in sites.first { $0.code == code } }) ?? sites.first else {
            throw GatewayEmulatorError.noSite
        }
        guard let zone = TimeZone(identifier: site.timeZone) else { throw GatewayEmulatorError.noSite }
        let lots = try await client.lots(siteId: site.id)
        var sensorIds: [[String]] = []
        var simLots: [CampusDaySimulator.Lot] = []
        for (index, lot) in lots.enumerated() {
            let spots = try await client.spots(lotId: lot.id)
            sensorIds.append(spots.map(\.sensorId))
            let states = try await client.spotStates(lotId: lot.id).value.states
            simLots.append(.init(index: index, kind: lot.kind == .structure ? .structure : .surface,
                                 states: states.map { SpotState(code: $0) ?? .unknown }))
        }

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let realStart = Date()
        let simStart = simulatedStart ?? realStart
        // The model works in steps; scale its rates to the campus time one step covers, so the
        // day looks the same at any speed: gaps close with a ~10-minute time constant, a lot can
        // turn over at most fully in half an hour, silent sensors report within ~2 minutes.
        let stepSeconds = Double(tick.components.seconds) + Double(tick.components.attoseconds) / 1e18
        let largest = simLots.map(\.states.count).max() ?? 0
        // A step covers the campus time since the previous one, which is more than a tick when
        // the server or the machine is slow; sized by the tick alone, a slow run would fall
        // behind the day.
        func model(covering simSecondsPerStep: Double) -> CampusDaySimulator {
            CampusDaySimulator(
                maxChangesPerLot: max(10, Int(Double(largest) * simSecondsPerStep / 1800)),
                approachRate: min(0.9, simSecondsPerStep / 600),
                turnoverRate: min(0.2, 0.004 * simSecondsPerStep / 60),
                unknownResolveProbability: min(1, simSecondsPerStep / 120))
        }
        var previousStep: Date?
        var rng = SplitMix64(seed: seed)
        // Sequences start at the wall clock in milliseconds so that a restarted emulator's
        // reports are newer than the last run's.
        var sequence = Int64(realStart.timeIntervalSince1970 * 1000)
        var totals = Totals()
        var lastShown = Date.distantPast

        while !Task.isCancelled {
            // The last step lands exactly on the end of the run, so a bounded run always reaches
            // the campus time it was asked for, however slowly its steps went.
            var now = Date()
            var isLast = false
            if let duration, now.timeIntervalSince(realStart) >= duration {
                now = realStart.addingTimeInterval(duration)
                isLast = true
            }
            let simNow = simStart.addingTimeInterval(now.timeIntervalSince(realStart) * speed)
            let parts = calendar.dateComponents([.weekday, .hour, .minute, .second], from: simNow)
            let minute = Double((parts.hour ?? 0) * 60 + (parts.minute ?? 0)) + Double(parts.second ?? 0) / 60
            let weekday = parts.weekday ?? 2

            let covered = max(stepSeconds, previousStep.map { now.timeIntervalSince($0) } ?? stepSeconds)
            previousStep = now
            let flips = model(covering: max(1, covered * speed)).step(lots: simLots, weekday: weekday, minuteOfDay: minute, rng: &rng)
            var reports: [SensorReport] = []
            for flip in flips {
                sequence += 1
                reports.append(SensorReport(sensorId: sensorIds[flip.lotIndex][flip.ordinal], occupied: flip.occupied,
                                            observedAt: now, sequence: sequence))
            }
            for batch in stride(from: 0, to: reports.count, by: batchSize).map({ Array(reports[$0..<min($0 + batchSize, reports.count)]) }) {
                try await send(batch, totals: &totals)
            }
            for flip in flips {
                simLots[flip.lotIndex].states[flip.ordinal] = flip.occupied ? .occupied : .free
            }
            if now.timeIntervalSince(lastShown) >= (isQuiet ? 60 : 1) {
                show(totals: totals, simNow: simNow, calendar: calendar, lots: simLots, codes: lots.map(\.code), elapsed: now.timeIntervalSince(realStart))
                lastShown = now
            }
            if isLast { break }
            try await Task.sleep(for: tick)
        }
        if !isQuiet { FileHandle.standardError.write(Data("\n".utf8)) }
        return totals
    }

    private var isQuiet: Bool { if case .quiet = progress { true } else { false } }

    private func show(totals: Totals, simNow: Date, calendar: Calendar, lots: [CampusDaySimulator.Lot], codes: [String], elapsed: TimeInterval) {
        let f = DateFormatter()
        f.calendar = calendar
        f.timeZone = calendar.timeZone
        f.dateFormat = "EEE HH:mm"
        let shares = zip(codes, lots).map { code, lot in
            let taken = lot.states.filter(\.isTaken).count
            return "\(code) \(Int((Double(taken) / Double(max(1, lot.states.count)) * 100).rounded()))%"
        }.joined(separator: " ")
        let rate = elapsed >= 1 ? String(format: "%.0f/s", Double(totals.sent) / elapsed) : "…"
        let text = "[\(f.string(from: simNow))] sent \(totals.sent) (accepted \(totals.accepted), \(rate), failed requests \(totals.failedRequests), retried \(totals.retriedRequests)) · \(shares)" + (totals.lastError.map { " · last error: \($0)" } ?? "")
        switch progress {
        case .line:
            let isTTY = isatty(2) == 1
            FileHandle.standardError.write(Data((isTTY ? "\r\u{1B}[K" + text : text + "\n").utf8))
        case .quiet(let logger):
            logger.info("emulator: \(text)")
        }
    }
}

public enum GatewayEmulatorError: Error, CustomStringConvertible {
    case noSite
    public var description: String { "The server has no site to simulate; start it with --demo." }
}
