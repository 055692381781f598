import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import WaymarkCore

/// Trips on real streets (PLN-5): walking, cycling and driving figures from OSRM routers, fetched
/// by `prepare` before the synchronous planner runs and answered from a cache. Whatever the cache
/// does not hold — transit, a profile with no router, a router that is down, a place too far from
/// any street — gets the ground estimate, so a plan never fails for want of a router.
///
/// A pair the router answered with no route (a null cell) is no route: that mode is not offered
/// between them, rather than guessed at from the ground.
final class RoutedEstimator: PreparableEstimator {
    let routers: [StreetProfile: OSRMRouter]
    let ground: GroundDistanceEstimator
    let now: @Sendable () -> Date
    let logger: Logger
    private let state: NIOLockedValueBox<State>

    /// Places further than this from the street the router put them on are outside its map (or in
    /// a park's middle): their pairs keep the ground estimate.
    static let maximumSnapMetres = 1_000.0
    /// A router that could not be reached is not asked again for this long.
    static let retryAfter: TimeInterval = 30
    /// A failing router is logged at most this often.
    static let warningInterval: TimeInterval = 60

    private struct State: Sendable {
        var cache: RouteCache
        var unreachableUntil: [StreetProfile: Date] = [:]
        var warnedAt: [StreetProfile: Date] = [:]
    }

    init(routers: [StreetProfile: OSRMRouter], ground: GroundDistanceEstimator = GroundDistanceEstimator(),
         cache: RouteCache = RouteCache(), now: @escaping @Sendable () -> Date, logger: Logger) {
        self.routers = routers
        self.ground = ground
        self.now = now
        self.logger = logger
        state = NIOLockedValueBox(State(cache: cache))
    }

    /// The routers the configuration names, on `client`; nil when it names none.
    convenience init?(_ config: WaymarkConfiguration, client: HTTPClient, now: @escaping @Sendable () -> Date, logger: Logger) {
        var routers: [StreetProfile: OSRMRouter] = [:]
        for (profile, url) in [(StreetProfile.foot, config.osrmFootURL), (.bike, config.osrmBikeURL), (.car, config.osrmCarURL)] {
            if let url { routers[profile] = OSRMRouter(client: client, baseURL: url, profile: profile) }
        }
        guard !routers.isEmpty else { return nil }
        self.init(routers: routers, now: now, logger: logger)
    }

    // MARK: Estimating

    func estimate(from: Coordinate, to: Coordinate, by mode: TravelMode) -> TravelEstimate? {
        guard let profile = StreetProfile(mode), routers[profile] != nil, from != to else {
            return ground.estimate(from: from, to: to, by: mode)
        }
        let key = RouteCache.Key(profile: profile, from: from, to: to)
        let at = now()
        switch state.withLockedValue({ $0.cache.figure(key, at: at) }) {
        case .route(let seconds, let metres):
            // Parking, a ride arriving, unlocking a bike: the router knows only the streets.
            let minutes = Int((seconds / 60).rounded(.up)) + (ground.accessMinutes[mode] ?? 0)
            return TravelEstimate(mode: mode, minutes: max(1, minutes), metres: Int(metres.rounded()))
        case .noRoute:
            return nil
        case .offStreets, nil:
            return ground.estimate(from: from, to: to, by: mode)
        }
    }

    // MARK: Preparing

    func prepare(_ places: [Coordinate], modes: Set<TravelMode>) async {
        // Each place once, in the order given (the day's order), as many as one request may hold.
        var seen = Set<Coordinate>()
        let places = Array(places.filter { $0.isValid && seen.insert($0).inserted }.prefix(OSRMRouter.maximumCoordinates))
        guard places.count > 1 else { return }
        let profiles = Set(modes.compactMap(StreetProfile.init)).filter { routers[$0] != nil }
        await withTaskGroup(of: Void.self) { group in
            for profile in profiles {
                group.addTask { await self.fill(profile, places) }
            }
        }
    }

    /// Asks `profile`'s router for the table between `places` unless every pair is fresh in the
    /// cache or the router was just found unreachable.
    private func fill(_ profile: StreetProfile, _ places: [Coordinate]) async {
        guard let router = routers[profile] else { return }
        let asked = now()
        let needed = state.withLockedValue { s -> Bool in
            if let until = s.unreachableUntil[profile], asked < until { return false }
            for a in places {
                for b in places where a != b && s.cache.figure(.init(profile: profile, from: a, to: b), at: asked) == nil { return true }
            }
            return false
        }
        guard needed else { return }
        let table: OSRMTable
        do { table = try await router.table(places) } catch {
            failed(profile, router: router, error)
            return
        }
        let at = now()
        state.withLockedValue { s in
            s.unreachableUntil[profile] = nil
            for (i, a) in places.enumerated() {
                for (j, b) in places.enumerated() where i != j {
                    let figure: RouteCache.Figure = if max(table.snappedMetres[i], table.snappedMetres[j]) > Self.maximumSnapMetres {
                        .offStreets
                    } else if let seconds = table.durations[i][j], let metres = table.distances[i][j] {
                        .route(seconds: seconds, metres: metres)
                    } else {
                        .noRoute
                    }
                    s.cache.store(figure, for: .init(profile: profile, from: a, to: b), at: at)
                }
            }
        }
    }

    private func failed(_ profile: StreetProfile, router: OSRMRouter, _ error: any Error) {
        let at = now()
        let warn = state.withLockedValue { s -> Bool in
            if case OSRMFailure.unreachable = error { s.unreachableUntil[profile] = at.addingTimeInterval(Self.retryAfter) }
            if let last = s.warnedAt[profile], at.timeIntervalSince(last) < Self.warningInterval { return false }
            s.warnedAt[profile] = at
            return true
        }
        guard warn else { return }
        logger.warning("street router failed; using ground estimates", metadata: [
            "profile": .string(profile.rawValue), "router": .string(router.baseURL), "error": "\(error)",
        ])
    }
}
