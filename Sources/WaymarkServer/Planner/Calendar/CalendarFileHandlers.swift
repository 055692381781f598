import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func importCalendarFile(_ input: Operations.ImportCalendarFile.Input) async throws -> Operations.ImportCalendarFile.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .textCalendar(let body) = input.body else { throw Problem.unsupportedMediaType }
        let data: Data
        do { data = try await Data(collecting: body, upTo: CalendarFiles.fileLimit) } catch { throw Problem.tooLarge(limit: CalendarFiles.fileLimit) }
        let q = input.query
        let calendarId = try q.calendarId.map { try PlannerMapping.id($0, "calendar") }
        let report = try await services.planner.files.importFile(me, data, calendarId: calendarId, file: q.file, timeZone: q.timeZone)
        return .ok(.init(body: .json(.init(
            calendar: PlannerMapping.calendar(report.calendar), added: report.added, updated: report.updated,
            skipped: report.skipped.map { .init(line: $0.line, title: $0.title, reason: $0.reason) }, notes: report.notes))))
    }

    func exportCalendar(_ input: Operations.ExportCalendar.Input) async throws -> Operations.ExportCalendar.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.calendarId, "calendar")
        let file = try await services.planner.files.export(userId: me.userId, calendarId: id, travel: input.query.travel ?? false)
        return .ok(.init(headers: .init(contentDisposition: PlannerMapping.attachment(file.name, ext: "ics")),
                         body: .textCalendar(HTTPBody(file.text))))
    }

    func getCalendarSubscription(_ input: Operations.GetCalendarSubscription.Input) async throws -> Operations.GetCalendarSubscription.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.calendarId, "calendar")
        return .ok(.init(body: .json(PlannerMapping.subscription(try await services.planner.subscriptions.subscription(me, calendarId: id)))))
    }

    func createCalendarSubscription(_ input: Operations.CreateCalendarSubscription.Input) async throws -> Operations.CreateCalendarSubscription.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.calendarId, "calendar")
        let made = try await services.planner.subscriptions.create(me, calendarId: id, includeTravel: b.includeTravel ?? false)
        return .created(.init(body: .json(PlannerMapping.subscription(made))))
    }

    func deleteCalendarSubscription(_ input: Operations.DeleteCalendarSubscription.Input) async throws -> Operations.DeleteCalendarSubscription.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.planner.subscriptions.delete(me, calendarId: try PlannerMapping.id(input.path.calendarId, "calendar"))
        return .noContent(.init())
    }

    func getCalendarFeed(_ input: Operations.GetCalendarFeed.Input) async throws -> Operations.GetCalendarFeed.Output {
        let answer = try await services.planner.subscriptions.feed(
            token: input.path.feedToken, ifNoneMatch: input.headers.ifNoneMatch, ifModifiedSince: input.headers.ifModifiedSince)
        switch answer {
        case .unchanged(let etag, let modified):
            return .notModified(.init(headers: .init(eTag: etag, lastModified: HTTPDate.format(modified))))
        case .calendar(let text, _, let etag, let modified):
            return .ok(.init(headers: .init(eTag: etag, lastModified: HTTPDate.format(modified), cacheControl: "private, max-age=300"),
                             body: .textCalendar(HTTPBody(text))))
        }
    }
}
