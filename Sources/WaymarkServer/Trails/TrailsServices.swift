import Foundation
import Logging
import WaymarkCore

/// The Trails area: the catalogue, its pictures, imports and edits, favourites.
struct TrailsServices: Sendable {
    let trails: TrailStore
    let catalogue: TrailCatalogue
    let weather: TrailWeather
    let suggestions: TrailSuggestions
    let comments: TrailComments
    let forum: TrailForum
    let hikes: Hikes
    let hunts: ScavengerHunts
    let social: SocialServices
    let notifier: Notifier
    let now: @Sendable () -> Date
    let logger: Logger
    /// The catalogue's region: where its pages' dates are told and "Thursday morning" is.
    let timeZone: TimeZone

    init(_ env: WaymarkEnvironment, weather provider: (any WeatherProvider)?, notifications: NotificationsServices) {
        trails = TrailStore(store: env.store)
        catalogue = TrailCatalogue(trails: trails)
        timeZone = TimeZone(identifier: env.configuration.trailsTimeZone) ?? TimeZone(identifier: "America/Los_Angeles")!
        suggestions = TrailSuggestions(store: env.store, catalogue: catalogue, now: env.now, timeZone: timeZone, logger: env.logger)
        notifier = notifications.notifier
        comments = TrailComments(store: env.store, now: env.now)
        forum = TrailForum(store: env.store, now: env.now)
        hikes = Hikes(store: env.store, trails: trails, now: env.now)
        hunts = ScavengerHunts(store: env.store, trails: trails, now: env.now)
        social = SocialServices(env, notifier: notifications.notifier)
        weather = TrailWeather(store: env.store, provider: provider, now: env.now, logger: env.logger)
        now = env.now
        logger = env.logger
    }

    /// What a list asks for: a point, a view, a name, or nothing (all by name).
    struct Query: Sendable {
        enum Place: Sendable {
            case near(Coordinate)
            case view(south: Double, west: Double, north: Double, east: Double)
            case named(String)
            case all
        }
        var place: Place = .all
        var filter = TrailIndex.Filter()
        var limit = 20
        var offset = 0
    }

    /// The matching trails (with the distance from the asked point), how many matched in all,
    /// and, for a name, the town of the gazetteer it names.
    func list(_ q: Query) async throws -> (rows: [(row: TrailRow, metres: Double?)], total: Int, town: TrailTowns.Town?) {
        let s = try await catalogue.current()
        switch q.place {
        case .near(let point):
            let found = s.index.nearest(to: point, limit: q.offset + q.limit, filter: q.filter)
            return (found.dropFirst(q.offset).compactMap { f in s.rows[f.entry.id].map { ($0, f.metres) } }, found.count, nil)
        case .view(let south, let west, let north, let east):
            let found = s.index.within(south: south, west: west, north: north, east: east, limit: .max, filter: q.filter)
            return (found.dropFirst(q.offset).prefix(q.limit).compactMap { e in s.rows[e.id].map { ($0, nil) } }, found.count, nil)
        case .named(let text):
            let found = s.search(text, filter: q.filter)
            let town = TrailTowns.match(text)
            // A town no trail is named after: the trails nearest to it.
            if found.isEmpty, let town {
                let near = s.index.nearest(to: town.position, limit: q.offset + q.limit, filter: q.filter)
                return (near.dropFirst(q.offset).compactMap { f in s.rows[f.entry.id].map { ($0, f.metres) } }, near.count, town)
            }
            return (found.dropFirst(q.offset).prefix(q.limit).map { ($0, nil) }, found.count, town)
        case .all:
            let found = s.byName.filter { q.filter.admits($0.indexEntry) }
            return (found.dropFirst(q.offset).prefix(q.limit).map { ($0, nil) }, found.count, nil)
        }
    }

    func rows(_ ids: [String]) async throws -> [TrailRow] {
        let s = try await catalogue.current()
        return ids.compactMap { s.rows[$0] }
    }

    /// Reads a file's trails and saves what can be saved; the problems name what was left out.
    func importFile(_ data: Data, file: String, eachTrack: Bool, source: TrailSource = .file) async throws -> (saved: [Trail], problems: [TrailImport.Problem]) {
        let isJSON = TrailImport.isGeoJSON(file)
        var result = TrailImport.read(data, file: file, eachTrack: eachTrack)
        // Two trails of one file with the same id: the later one would silently replace the first.
        var seen = Set<String>()
        var kept: [Trail] = []
        for t in result.trails {
            guard seen.insert(t.id).inserted else {
                result.problems.append(TrailImport.Problem(file: file, item: "'\(t.name)'", rule: "has the same id (\(t.id)) as an earlier trail in the file"))
                continue
            }
            kept.append(t)
        }
        // Re-importing a trail keeps what operators added on its page unless the file says otherwise.
        var merged: [Trail] = []
        for var t in kept {
            if let old = try await trails.trail(t.id)?.trail {
                if t.area.isEmpty { t.area = old.area }
                if t.description.isEmpty { t.description = old.description }
                t.pictureId = t.pictureId ?? old.pictureId
                if !isJSON {
                    t.officialDifficulty = old.officialDifficulty; t.accessible = old.accessible; t.huntingAlert = old.huntingAlert
                    t.info = old.info; t.contacts = old.contacts; t.guidelines = old.guidelines; t.amenities = old.amenities
                    if t.points.isEmpty { t.points = old.points }
                }
            }
            merged.append(t)
        }
        try await trails.save(merged, source: source, now: now())
        return (merged, result.problems)
    }
}

extension TrailsServices {
    /// The weekly suggestions: checked every quarter of an hour, sent once a week per person.
    func start(_ background: BackgroundTasks, jobs: Bool) {
        guard jobs else { return }
        let suggestions = suggestions, notifier = notifier, logger = logger
        background.start {
            while !Task.isCancelled {
                do { if try await suggestions.run() > 0 { notifier.delivered() } } catch {
                    logger.warning("trail suggestions failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(900))
            }
        }
    }

    /// The area's operations that need a signed-in person; operators are checked in the handlers.
    static let signedInOperations: Set<String> = [
        "importTrails", "updateTrail", "deleteTrail", "uploadTrailPicture",
        "listTrailFavourites", "addTrailFavourite", "removeTrailFavourite",
        "putMyTrailComment", "deleteMyTrailComment", "voteTrailComment", "reportTrailComment",
        "listReportedTrailComments", "moderateTrailComment",
        "putTrailForumPost", "deleteTrailForumPost", "reportTrailForumPost", "listReportedTrailForumPosts", "moderateTrailForumPost",
        "getHikerBody", "putHikerBody", "listMyHikes", "getMyHike", "saveMyHike", "deleteMyHike", "getMyHikeGPX",
        "getMyScavengerHunt", "markScavengerFind",
    ]
}
