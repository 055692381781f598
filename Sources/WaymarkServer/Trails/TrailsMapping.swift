import Foundation
import WaymarkAPI
import WaymarkCore

/// Trails between core and API types.
enum TrailsMapping {
    static func pictureURL(_ id: String?) -> String? {
        id.map { "/v1/trail-pictures/\($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0)" }
    }

    static func summary(_ r: TrailRow, metres: Double? = nil, line: [[Double]]? = nil) -> Components.Schemas.TrailSummary {
        .init(id: r.id, name: r.name, area: r.area, shape: shape(r.shape), difficulty: difficulty(r.difficulty),
              difficultyIsOfficial: r.official, accessible: r.accessible, huntingAlert: r.huntingAlert,
              trailhead: .init(latitude: r.trailhead.latitude, longitude: r.trailhead.longitude),
              lengthMetres: (r.lengthMetres * 10).rounded() / 10, gainMetres: r.gainMetres.rounded(),
              pictureURL: pictureURL(r.pictureId),
              features: PointOfInterest.Kind.allCases.filter { r.features.contains($0) }.map(kind),
              distanceMetres: metres.map { $0.rounded() }, line: line)
    }

    static func trail(_ r: TrailRow, _ t: Trail, timeZone: TimeZone) -> Components.Schemas.Trail {
        let m = t.measures
        let round1 = { (v: Double) in (v * 10).rounded() / 10 }
        return .init(
            summary: summary(r), description: t.description,
            measures: .init(lengthMetres: round1(m.metres), slopeLengthMetres: round1(m.slopeMetres), gainMetres: m.gain.rounded(),
                            lossMetres: m.loss.rounded(), highestMetres: m.highest.map(round1), lowestMetres: m.lowest.map(round1),
                            averageGradePercent: round1(m.averageGrade), steepestGradePercent: round1(m.steepestGrade),
                            effortRating: round1(m.effortRating), computedDifficulty: difficulty(m.difficulty), steps: m.steps()),
            profile: m.profile.sampled(count: 200).map { [$0.metres.rounded(), round1($0.elevation)] },
            path: t.path.map { p in [p.latitude, p.longitude] + (p.elevation.map { [$0] } ?? []) },
            info: info(t.info),
            contacts: t.contacts.map { .init(name: $0.name, phones: $0.phones) },
            guidelines: t.guidelines.map { g in
                .init(kind: .init(rawValue: g.kind.rawValue)!, name: g.name, description: g.description, warningSigns: g.warningSigns,
                      pictureId: g.pictureId, pictureURL: pictureURL(g.pictureId))
            },
            points: t.points.map(point),
            amenities: t.amenities.map { .init(rawValue: $0.rawValue)! },
            updatedAt: r.updatedAt, timeZone: timeZone.identifier)
    }

    static func info(_ i: TrailInfo) -> Components.Schemas.TrailInfo {
        .init(admission: i.admission, additionalFees: i.additionalFees, parking: i.parking,
              seasonalHours: i.seasonalHours.map { .init(season: $0.season, hours: $0.hours) })
    }

    static func info(_ i: Components.Schemas.TrailInfo) -> TrailInfo {
        TrailInfo(admission: i.admission.nonEmpty, additionalFees: i.additionalFees.nonEmpty,
                  seasonalHours: i.seasonalHours.map { SeasonalHours(season: $0.season, hours: $0.hours) }, parking: i.parking.nonEmpty)
    }

    static func comment(_ c: TrailCommentRow) -> Components.Schemas.TrailComment {
        .init(id: c.id, trailId: c.trailId, authorName: c.authorName, stars: c.stars, text: c.text, score: c.score,
              myVote: .init(rawValue: vote(c.myVote).rawValue)!, createdAt: c.createdAt, updatedAt: c.updatedAt)
    }

    static func post(_ p: TrailForumPostRow, viewer: String?) -> Components.Schemas.TrailForumPost {
        .init(id: p.id, trailId: p.trailId, authorName: p.authorName, text: p.text,
              pin: .init(latitude: p.pin.latitude, longitude: p.pin.longitude), mine: p.userId == viewer,
              createdAt: p.createdAt, updatedAt: p.updatedAt)
    }

    static func point(_ p: PointOfInterest) -> Components.Schemas.PointOfInterest {
        .init(id: p.id, kind: kind(p.kind), name: p.name, history: p.history,
              position: p.position.map { .init(latitude: $0.latitude, longitude: $0.longitude) }, focalPoint: p.focalPoint,
              pictureId: p.pictureId, pictureURL: pictureURL(p.pictureId))
    }

    static func hikeSummary(_ h: HikeRow) -> Components.Schemas.HikeSummary {
        .init(id: h.id, trailId: h.trailId, trailName: h.trailName, trailArea: h.trailArea, difficulty: difficulty(h.difficulty),
              startedAt: h.startedAt, endedAt: h.endedAt, elapsedSeconds: h.elapsedSeconds, movingSeconds: h.movingSeconds,
              distanceMetres: h.distanceMetres, gainMetres: h.gainMetres, averageSpeed: h.movingSeconds > 0 ? h.distanceMetres / h.movingSeconds : 0,
              steps: h.steps, calories: h.calories)
    }

    static func hike(_ h: HikeRow) -> Components.Schemas.Hike {
        .init(summary: hikeSummary(h), fixes: (h.fixes ?? []).map { $0.wire(start: h.startedAt) })
    }

    static func vote(_ v: Int) -> Operations.VoteTrailComment.Output.Ok.Body.JsonPayload.MyVotePayload {
        v > 0 ? .up : v < 0 ? .down : .none
    }

    static func shape(_ s: Trail.Shape) -> Components.Schemas.TrailShape { .init(rawValue: s.rawValue)! }
    static func difficulty(_ d: TrailDifficulty) -> Components.Schemas.TrailDifficulty { .init(rawValue: d.rawValue)! }
    static func kind(_ k: PointOfInterest.Kind) -> Components.Schemas.PointOfInterestKind { .init(rawValue: k.rawValue)! }
}

extension Optional where Wrapped == String {
    /// Nil for nil, empty or blank text.
    var nonEmpty: String? {
        guard let s = self?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
        return s
    }
}
