import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkServer

/// Data in: a venue from IMDF and its staff directory from CSV (WAY-1, WAY-6).
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load data: parking sites (GeoJSON, CSV), indoor maps (IMDF), staff directories (CSV), trails (GPX, GeoJSON), public transport (GTFS).",
        subcommands: [Site.self, IMDF.self, Directory.self, GPX.self, GeoJSON.self, GTFS.self])

    struct Site: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "site",
            abstract: "Add a parking site, or update one in place, from a GeoJSON file (SITE_FILES.md describes it).",
            discussion: """
                The file holds the site, its lots and, where they were surveyed, its spots; --spots adds \
                spots from a CSV inventory. A site already imported under the same code is updated in \
                place: lots keep their bookings, reviews and history, spots their holds and states. Any \
                problem refuses the whole file and the site stays as it was.
                """)
        @OptionGroup var options: ServerOptions
        @Argument(help: "The site's GeoJSON file.")
        var file: String
        @ArgumentParser.Option(help: "A CSV file of spots (lot, label, level, kind, latitude, longitude, …).")
        var spots: String?

        func run() async throws {
            let bar = ProgressBar()
            bar.update("Reading \(file)", 0)
            guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("Cannot read \(file).") }
            let csv = try spots.map { path in
                guard let d = FileManager.default.contents(atPath: path) else { throw ValidationError("Cannot read \(path).") }
                return d
            }
            do {
                let r = try await options.withApplication { app in
                    try await app.importSite(geoJSON: data, file: (file as NSString).lastPathComponent, spotsCSV: csv,
                                             csvFile: spots.map { ($0 as NSString).lastPathComponent }, progress: { bar.update($0, $1) })
                }
                let verb = r.created ? "added" : "updated"
                print("Site '\(r.name)' (\(r.code)) \(verb): lots \(r.lots.added) added, \(r.lots.updated) updated, \(r.lots.removed) removed; "
                      + "spots \(r.spots.added) added, \(r.spots.updated) updated, \(r.spots.removed) removed.")
            } catch let failure as SiteImportFailure {
                FileHandle.standardError.write(Data(("\n" + failure.description + "\n").utf8))
                throw ExitCode(65)
            }
        }
    }

    struct IMDF: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "imdf",
            abstract: "Load or replace a venue from an IMDF archive (a .zip or a folder of .geojson files).",
            discussion: """
                The venue whose id the archive's venue feature has is replaced as a whole; if the import \
                fails, the previous venue stays as it was. Problems the data allows repairing are listed \
                and the import goes on; --strict rejects the archive on any problem.
                """)
        @OptionGroup var options: ServerOptions
        @Argument(help: "The archive: a .zip file or a folder.")
        var archive: String
        @ArgumentParser.Option(help: "The parking site (id or code) the venue belongs to.")
        var site: String?
        @ArgumentParser.Flag(help: "Reject the archive on any problem, even one that can be repaired.")
        var strict = false

        func run() async throws {
            let bar = ProgressBar()
            bar.update("Reading \(archive)", 0)
            let files: [(name: String, data: Data)]
            do { files = try ArchiveFiles.imdf.read(path: archive) } catch { throw ValidationError(error.description) }
            do {
                let report = try await options.withApplication { app in
                    try await app.importVenue(files: files, strict: strict, siteId: site, progress: { bar.update($0, $1) })
                }
                for line in report.problems.numbered { print(line) }
                print("Venue '\(report.name)' (\(report.venueId)) is at version \(report.version): \(report.features) features"
                      + (report.problems.isEmpty ? "." : ", \(report.problems.errors) left out and \(report.problems.warnings) repaired (listed above)."))
            } catch let failure as VenueImportFailure {
                FileHandle.standardError.write(Data(("\n" + failure.description + "\n").utf8))
                throw ExitCode(65)
            }
        }
    }

    struct Directory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "directory",
            abstract: "Replace a venue's staff directory from a CSV file.",
            discussion: "Columns: name, title, department, building, room, email, office_hours (name, building and room required).")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The CSV file.")
        var file: String
        @ArgumentParser.Option(help: "The venue's id (`waymark venues` lists them).")
        var venue: String

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw ValidationError("\(file) cannot be read as UTF-8 text.")
            }
            let staff: [StaffMember]
            do { staff = try StaffCSV.parse(text, file: (file as NSString).lastPathComponent) } catch {
                FileHandle.standardError.write(Data((error.description + "\n").utf8))
                throw ExitCode(65)
            }
            guard let report = try await options.withApplication({ try await $0.importDirectory(venueId: venue, staff: staff) }) else {
                throw ValidationError("No venue with the id '\(venue)'.")
            }
            for line in report.unplaced { print("Not on the plans: \(line)") }
            print("The directory of \(venue) has \(report.people) people (\(report.people - report.unplaced.count) in rooms on the plans); version \(report.version).")
        }
    }
}

/// Trails from files (TRL-1): each file is read, checked and saved on its own, so one broken file
/// leaves the others in; the exit status says whether anything was left out.
struct TrailFiles {
    static func run(_ files: [String], options: ServerOptions, eachTrack: Bool) async throws {
        let bar = ProgressBar()
        var saved = 0, problems: [String] = []
        try await options.withApplication { app in
            for (i, file) in files.enumerated() {
                bar.update("Reading \((file as NSString).lastPathComponent)", Double(i) / Double(files.count))
                guard let data = FileManager.default.contents(atPath: file) else {
                    problems.append("\(file): cannot be read"); continue
                }
                let r = try await app.importTrailFile(data, file: (file as NSString).lastPathComponent, eachTrack: eachTrack)
                saved += r.trails.count
                problems += r.problems
                for t in r.trails where files.count <= 20 {
                    bar.update("Saved '\(t.name)' (\(t.id)): \(String(format: "%.1f", t.metres / 1000)) km, \(Int(t.gain.rounded())) m up", Double(i + 1) / Double(files.count))
                }
            }
            bar.update("Done", 1)
            let total = try await app.trailCount()
            for (n, p) in problems.enumerated() { print("\(n + 1). \(p)") }
            print("\(saved) trail\(saved == 1 ? "" : "s") added or replaced from \(files.count) file\(files.count == 1 ? "" : "s")"
                  + (problems.isEmpty ? "" : ", \(problems.count) left out (listed above)") + "; the catalogue has \(total).")
        }
        if saved == 0 { throw ExitCode(65) }
        if !problems.isEmpty { throw ExitCode(1) }
    }
}

extension Import {
    struct GPX: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gpx",
            abstract: "Add or replace trails from GPX files (tracks or routes with elevation).",
            discussion: """
                Each file becomes one trail named after its metadata or the file (its tracks joined in order; \
                --each-track makes one trail per track). A trail with the same id (from its name) is replaced: \
                its path and figures change, what operators wrote on its page stays.
                """)
        @OptionGroup var options: ServerOptions
        @Argument(help: "The GPX files.") var files: [String]
        @ArgumentParser.Flag(help: "One trail per track rather than one per file.") var eachTrack = false

        func run() async throws { try await TrailFiles.run(files, options: options, eachTrack: eachTrack) }
    }

    struct GeoJSON: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "geojson",
            abstract: "Add or replace trails from GeoJSON files: one trail per LineString feature.",
            discussion: """
                Coordinates are [longitude, latitude, elevation]. Properties: name (required), id, area, description, \
                shape (loop, outAndBack, pointToPoint), difficulty (easy, moderate, hard), accessible, huntingAlert, \
                admission, additionalFees, parking, seasonalHours [{season, hours}], contacts [{name, phones}], \
                amenities, guidelines [{kind, name, description, warningSigns}], points [{kind, name, history, \
                position, focalPoint}].
                """)
        @OptionGroup var options: ServerOptions
        @Argument(help: "The GeoJSON files.") var files: [String]

        func run() async throws { try await TrailFiles.run(files, options: options, eachTrack: false) }
    }
}

extension Import {
    struct GTFS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gtfs",
            abstract: "Load or replace the public-transport timetable from a GTFS feed (a .zip or a folder of .txt tables).",
            discussion: """
                Reads agency, stops, routes, trips, stop_times, calendar, calendar_dates, frequencies and \
                transfers and checks them against the GTFS reference. Any error refuses the whole feed and \
                the timetable in use stays as it was; warnings are listed and the feed goes in. The new \
                feed replaces the old one at once, on every server sharing the database.
                """)
        @OptionGroup var options: ServerOptions
        @Argument(help: "The feed: a .zip file or a folder.")
        var feed: String

        func run() async throws {
            let bar = ProgressBar()
            bar.update("Reading \(feed)", 0)
            let files: [(name: String, data: Data)]
            do { files = try ArchiveFiles.gtfs.read(path: feed) } catch { throw ValidationError(error.description) }
            do {
                let report = try await options.withApplication { app in
                    try await app.importTransitFeed(files: files, progress: { bar.update($0, $1) })
                }
                for (n, line) in report.warnings.enumerated() { print("\(n + 1). \(line)") }
                let days = report.firstDay.map { first in " from \(first) to \(report.lastDay ?? first)" } ?? ""
                print("The timetable of \(report.name) is at version \(report.version): \(report.stops) stops, \(report.routes) routes, "
                      + "\(report.trips) trips, \(report.stopTimes) stop times\(days)"
                      + (report.warnings.isEmpty ? "." : "; \(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s") (listed above)."))
            } catch let failure as TransitImportFailure {
                FileHandle.standardError.write(Data(("\n" + failure.description + "\n").utf8))
                throw ExitCode(65)
            }
        }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write data out: a venue as an IMDF archive.", subcommands: [IMDF.self])

    struct IMDF: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "imdf", abstract: "Write a venue as an IMDF archive (.zip).")
        @OptionGroup var options: ServerOptions
        @ArgumentParser.Option(help: "The venue's id (`waymark venues` lists them).")
        var venue: String
        @ArgumentParser.Option(name: .shortAndLong, help: "The .zip file to write.")
        var output: String

        func run() async throws {
            guard let found = try await options.withApplication({ try await $0.exportVenue(id: venue) }) else {
                throw ValidationError("No venue with the id '\(venue)'.")
            }
            let zip = try ArchiveFiles.zip(found.files, modified: found.importedAt)
            try zip.write(to: URL(fileURLWithPath: output))
            print("Wrote \(output): \(found.files.count) files, \(zip.count) bytes.")
        }
    }
}

struct Venues: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the venues (indoor maps) and their directories.")
    @OptionGroup var options: ServerOptions

    func run() async throws {
        let venues = try await options.withApplication { try await $0.listVenues() }
        if venues.isEmpty { print("No venues yet: load one with `waymark import imdf <archive>`, or run with --demo."); return }
        for v in venues { print("\(v.id)\t\(v.name)\tversion \(v.version)\t\(v.buildings) buildings\t\(v.people) people") }
    }
}
