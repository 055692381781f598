import Foundation

// Reading calendar.txt, calendar_dates.txt and trips.txt.
extension GTFSReader.Reading {
    // MARK: calendar.txt, calendar_dates.txt

    mutating func readCalendar(_ t: Table, days: [String]) -> [TransitFeed.ServiceCalendar] {
        let file = t.name
        let cId = t.column("service_id"), cStart = t.column("start_date"), cEnd = t.column("end_date")
        let dayColumns = days.map { t.column($0) }
        var calendars: [TransitFeed.ServiceCalendar] = []
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let id = t.text(r, cId)
            if id.isEmpty { report(.error, file, line, "service_id", "service_id is empty; it is required"); continue }
            serviceIds.insert(id)
            if let first = seen[id] { report(.error, file, line, "service_id", "service_id '\(id)' appears twice (first on row \(first))"); continue }
            seen[id] = line
            var weekdays: Set<Int> = []
            for (i, column) in dayColumns.enumerated() {
                switch t.text(r, column) {
                case "1": weekdays.insert(i + 1)
                case "0": break
                case let other: report(.error, file, line, days[i], "'\(other)' is not 0 or 1")
                }
            }
            guard let start = readDate(t, r, cStart, "start_date"), let end = readDate(t, r, cEnd, "end_date") else { continue }
            if end < start { report(.error, file, line, "end_date", "end_date \(end) is before start_date \(start)") }
            calendars.append(TransitFeed.ServiceCalendar(serviceId: id, weekdays: weekdays, start: start, end: end))
        }
        return calendars
    }

    mutating func readCalendarDates(_ t: Table) -> [TransitFeed.ServiceException] {
        let file = t.name
        let cId = t.column("service_id"), cDate = t.column("date"), cType = t.column("exception_type")
        var exceptions: [TransitFeed.ServiceException] = []
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let id = t.text(r, cId)
            if id.isEmpty { report(.error, file, line, "service_id", "service_id is empty; it is required"); continue }
            serviceIds.insert(id)
            guard let date = readDate(t, r, cDate, "date") else { continue }
            let added: Bool
            switch t.text(r, cType) {
            case "1": added = true
            case "2": added = false
            case let other:
                report(.error, file, line, "exception_type", other.isEmpty ? "exception_type is empty; it is required" : "'\(other)' is not an exception_type (1 added, 2 removed)")
                continue
            }
            let key = "\(id)\u{0}\(date)"
            if let first = seen[key] {
                report(.error, file, line, "date", "service '\(id)' on \(date) appears twice (first on row \(first))")
                continue
            }
            seen[key] = line
            exceptions.append(TransitFeed.ServiceException(serviceId: id, date: date, added: added))
        }
        return exceptions
    }

    mutating func readDate(_ t: Table, _ r: Int, _ column: Int?, _ field: String) -> TransitFeed.ServiceDate? {
        switch t.date(r, column) {
        case .value(let d): return d
        case .empty: report(.error, t.name, t.line(r), field, "\(field) is empty; it is required")
        case .invalid: report(.error, t.name, t.line(r), field, "'\(t.text(r, column))' is not a date (YYYYMMDD)")
        }
        return nil
    }

    // MARK: trips.txt

    mutating func readTrips(_ t: Table, routes: Set<String>?, services: Set<String>?) -> [TransitFeed.Trip] {
        let file = t.name
        let cId = t.column("trip_id"), cRoute = t.column("route_id"), cService = t.column("service_id"), cHeadsign = t.column("trip_headsign")
        var trips: [TransitFeed.Trip] = []
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let id = t.text(r, cId)
            if id.isEmpty { report(.error, file, line, "trip_id", "trip_id is empty; it is required"); continue }
            if let first = seen[id] { report(.error, file, line, "trip_id", "trip_id '\(id)' appears twice (first on row \(first))"); continue }
            seen[id] = line
            let route = t.text(r, cRoute), service = t.text(r, cService)
            if route.isEmpty {
                report(.error, file, line, "route_id", "route_id is empty; it is required")
            } else if let routes, !routes.contains(route) {
                report(.error, file, line, "route_id", "route_id '\(route)' is not in routes.txt")
            }
            if service.isEmpty {
                report(.error, file, line, "service_id", "service_id is empty; it is required")
            } else if let services, !services.contains(service) {
                report(.error, file, line, "service_id", "service_id '\(service)' is in neither calendar.txt nor calendar_dates.txt")
            }
            let headsign = t.text(r, cHeadsign)
            trips.append(TransitFeed.Trip(id: id, routeId: route, serviceId: service, headsign: headsign.isEmpty ? nil : headsign))
        }
        return trips
    }

    // MARK: stop_times.txt
}
