import FluentKit

/// In order; a migration, once released, is never edited: add the next number instead.
enum Migrations {
    static let all: [any Migration] = [
        CreateParking(),
        CreateGateways(),
        CreateLiveEvents(),
        CreateOccupancySnapshots(),
        CreateAccounts(),
        CreateHolds(),
        CreateBookingsAndLedger(),
        CreateLotReviews(),
        CreateNotifications(),
        CreateOperatorAnalytics(),
        GroupLiveEvents(),
        CreateSpotStates(),
        CreateSensorCommitFunction(),
        CreateWebPush(),
        CreateWayfinding(),
        CreatePlanner(),
        CreateTrails(),
        CreateTrailForum(),
        CreateHikes(),
        CreateFriendsAndMessages(),
        CreateTransitFeeds(),
        CreateLeaveAlerts(),
        CreateCalendarFiles(),
        AddPromisedSpaces(),
        CreateSiteOperators(),
        CreateSensorHealth(),
        CreateLotClosures(),
        ScopeGatewaysToSites(),
        CreateMapUsage(),
        CreateBookingSeries(),
        CreateCardPayments(),
        AddSitePermits(),
    ]
}
