import Foundation
import HTTPTypes
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

/// Checks the bearer secret of the gateway operations before their body is read.
struct GatewayAuthMiddleware: ServerMiddleware {
    static let operations: Set<String> = ["ingestSensorEvents", "ingestThingsStackUplink"]
    let keys: GatewayKeys
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operations.contains(operationID) else { return try await next(request, body, metadata) }
        let gateway = try await Self.gateway(authorization: request.headerFields[.authorization], keys: keys, now: now())
        return try await RequestContext.$gateway.withValue(gateway) {
            try await next(request, body, metadata)
        }
    }

    /// The gateway whose bearer secret `authorization` carries, else 401.
    static func gateway(authorization header: String?, keys: GatewayKeys, now: Date) async throws -> GatewayIdentity {
        guard let secret = BearerToken.parse(header), let gateway = try await keys.authenticate(secret: secret, now: now)
        else { throw Problem.unauthorized }
        return gateway
    }
}

extension APIHandler {
    /// `SensorEventBatch.events.maxItems` in the contract.
    static let maxEventsPerRequest = 5_000

    func ingestSensorEvents(_ input: Operations.IngestSensorEvents.Input) async throws -> Operations.IngestSensorEvents.Output {
        guard case .json(let batch) = input.body else { throw Problem.unsupportedMediaType }
        // The contract's maxItems: the generated decoder does not check it, and one request
        // must not be able to fill a whole group commit on its own.
        guard batch.events.count <= Self.maxEventsPerRequest else {
            throw Problem.badRequest("At most \(Self.maxEventsPerRequest) events are accepted in one request.")
        }
        let reports = batch.events.map {
            SensorReport(sensorId: $0.sensorId, occupied: $0.occupied, observedAt: $0.observedAt, sequence: $0.sequence)
        }
        let (outcomes, spots) = try await services.parking.ingest.ingestFindingSpots(reports, siteId: RequestContext.gateway?.siteId)
        var vitals: [(sensorId: String, vitals: SensorVitals)] = []
        for (k, e) in batch.events.enumerated() where e.battery != nil || e.rssi != nil || e.snr != nil {
            if spots[k] != nil, let v = SensorVitals(battery: e.battery.map { Int($0) }, rssi: e.rssi, snr: e.snr) { vitals.append((e.sensorId, v)) }
        }
        services.parking.traffic.note(gatewayId: RequestContext.gateway?.id, spots: spots, outcomes: outcomes, vitals: vitals)
        return .ok(.init(body: .json(Self.result(outcomes))))
    }

    func ingestThingsStackUplink(_ input: Operations.IngestThingsStackUplink.Input) async throws -> Operations.IngestThingsStackUplink.Output {
        guard case .json(let uplink) = input.body else { throw Problem.unsupportedMediaType }
        let message = uplink.uplinkMessage
        let report = SensorReport(
            sensorId: uplink.endDeviceIds.deviceId,
            occupied: message.decodedPayload.occupied,
            observedAt: message.receivedAt ?? uplink.receivedAt ?? services.now(),
            sequence: message.fCnt ?? 0)
        let (outcomes, spots) = try await services.parking.ingest.ingestFindingSpots([report], siteId: RequestContext.gateway?.siteId)
        // Several gateways may hear one uplink: the best heard tells how well the sensor is placed.
        let best = (message.rxMetadata ?? []).max { ($0.rssi ?? -.infinity) < ($1.rssi ?? -.infinity) }
        let vitals = spots.first.flatMap { $0 }.flatMap { _ in
            SensorVitals(battery: message.decodedPayload.battery.map { Int($0) }, rssi: best?.rssi, snr: best?.snr)
        }
        services.parking.traffic.note(gatewayId: RequestContext.gateway?.id, spots: spots, outcomes: outcomes,
                                      vitals: vitals.map { [(report.sensorId, $0)] } ?? [])
        return .ok(.init(body: .json(Self.result(outcomes))))
    }

    static func result(_ outcomes: [IngestOutcome]) -> Components.Schemas.IngestResult {
        var counts: [IngestOutcome: Int] = [:]
        for o in outcomes { counts[o, default: 0] += 1 }
        return .init(
            accepted: counts[.accepted] ?? 0, duplicate: counts[.duplicate] ?? 0, stale: counts[.stale] ?? 0,
            unknownSensor: counts[.unknownSensor] ?? 0, invalid: counts[.invalid] ?? 0,
            outcomes: outcomes.map { .init(rawValue: $0.rawValue)! })
    }
}
