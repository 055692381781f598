import Foundation
import Logging
import WaymarkAPI
import WaymarkCore

/// Implements the generated `APIProtocol`; one extension per area (`ParkingHandlers.swift`, …)
/// translates between API and core types and calls the area's queries and services.
struct APIHandler: APIProtocol {
    let services: WaymarkServices
}
