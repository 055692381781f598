import Foundation
import WaymarkAPI
import WaymarkCore

/// Journeys in the contract's shapes: instants rather than the service day's seconds.
enum TransitMapping {
    static func plan(_ p: TransitServices.Plan) -> Components.Schemas.JourneyPlan {
        .init(timeZone: p.feed.timeZone, timetable: p.feed.name, journeys: p.journeys.map { journey($0, day: p.day, from: p.from, to: p.to) })
    }

    static func journey(_ j: Journey, day: ServiceDay, from: Coordinate, to: Coordinate) -> Components.Schemas.Journey {
        let walked = j.legs.reduce(0.0) { if case .walk(let w) = $1 { $0 + w.metres } else { $0 } }
        return .init(leave: day.instant(j.departure), arrive: day.instant(j.arrival), minutes: Int((Double(j.arrival - j.departure) / 60).rounded(.up)),
                     rides: j.legs.filter(\.isRide).count, walkMetres: Int(walked.rounded()), legs: j.legs.map { leg($0, day: day, from: from, to: to) })
    }

    static func leg(_ leg: Journey.Leg, day: ServiceDay, from: Coordinate, to: Coordinate) -> Components.Schemas.JourneyLeg {
        switch leg {
        case .walk(let w):
            return .init(kind: .walk, leave: day.instant(w.departure), arrive: day.instant(w.arrival),
                         from: w.from.map(place) ?? .init(latitude: from.latitude, longitude: from.longitude),
                         to: w.to.map(place) ?? .init(latitude: to.latitude, longitude: to.longitude),
                         metres: Int(w.metres.rounded()))
        case .ride(let r):
            return .init(kind: .ride, leave: day.instant(r.departure), arrive: day.instant(r.arrival), from: place(r.from), to: place(r.to),
                         route: route(r.route), headsign: r.headsign, stops: r.stopCount)
        }
    }

    static func place(_ s: TransitFeed.Stop) -> Components.Schemas.JourneyPlace {
        .init(name: s.name, stopId: s.id, latitude: s.position.latitude, longitude: s.position.longitude)
    }

    static func route(_ r: TransitFeed.Route) -> Components.Schemas.TransitRoute {
        .init(name: r.name, longName: r.longName.isEmpty || r.longName == r.name ? nil : r.longName,
              mode: Components.Schemas.TransitRoute.ModePayload(rawValue: r.mode.rawValue) ?? .bus, colour: r.colour)
    }
}
