import Foundation
import WaymarkAPI
import WaymarkCore

/// Rows to API types. Stored JSON columns have the API's shape, so they decode straight into it.
enum ParkingMapping {
    static func site(_ r: SiteRow) throws -> Components.Schemas.Site {
        .init(
            id: r.id, code: r.code, name: r.name, timeZone: r.timeZone,
            center: .init(latitude: r.centerLat, longitude: r.centerLon),
            bounds: .init(south: r.south, west: r.west, north: r.north, east: r.east),
            permits: try r.permitKinds().map { .init(code: $0.code.rawValue, name: $0.name, colour: $0.colour) })
    }

    static func lot(_ r: LotRow, rating: RatingSummary, distance: Double? = nil) throws -> Components.Schemas.Lot {
        .init(
            id: r.id, siteId: r.siteId, code: r.code, name: r.name,
            kind: .init(rawValue: r.kind) ?? .surface, levels: r.levels,
            footprint: try JSONColumn.decode([Coordinate].self, r.footprint).map { .init(latitude: $0.latitude, longitude: $0.longitude) },
            center: .init(latitude: r.centerLat, longitude: r.centerLon),
            entrance: .init(latitude: r.entranceLat, longitude: r.entranceLon),
            capacity: r.capacity,
            permitRules: try JSONColumn.decode([Components.Schemas.PermitRule].self, r.permitRules),
            hours: try JSONColumn.decode([Components.Schemas.OpeningHours].self, r.hours),
            price: try JSONColumn.decode(Components.Schemas.LotPrice.self, r.price),
            rules: try JSONColumn.decode([String].self, r.rules),
            address: r.address,
            keysRequired: r.keysRequired != 0,
            rating: ReviewMapping.summary(rating),
            distanceMetres: distance,
            booking: try BookingMapping.offer(capacity: r.bookableCapacity, tariff: r.bookingTariff))
    }

    static func spot(_ r: SpotRow) -> Components.Schemas.Spot {
        .init(
            id: r.id, ordinal: r.ordinal, label: r.label, level: r.level,
            category: .init(rawValue: r.category) ?? .regular, sensorId: r.sensorId ?? "",
            center: .init(latitude: r.centerLat, longitude: r.centerLon),
            heading: r.heading, length: r.length, width: r.width)
    }

    static func occupancy(_ r: LotCountsRow) -> Components.Schemas.LotOccupancy {
        let c = r.counts
        return .init(
            lotId: r.id, total: c.total, occupied: c.occupied, held: c.held, booked: c.booked,
            free: c.free, closed: c.closed, unknown: c.unknown, fraction: c.fraction,
            level: .init(rawValue: c.level.rawValue) ?? .green, version: r.version,
            lastChangeAt: r.lastChangeAt.map(Date.init(millis:)))
    }
}
