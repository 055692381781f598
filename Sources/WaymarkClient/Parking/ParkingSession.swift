extension SessionMiddleware {
    /// Parking operations that take the session token; `listLotReviews` takes it optionally to
    /// mark the person's own review.
    static let parking: Set<String> = [
        "getSchedule", "createScheduleBlock", "updateScheduleBlock", "deleteScheduleBlock",
        "getScheduleLotAdvice", "createHold", "listHolds", "getHold", "cancelHold", "answerHold",
        "createBooking", "listBookings", "getBooking", "modifyBooking", "cancelBooking", "checkInBooking",
        "createBookingSeries", "getBookingSeries", "cancelBookingSeries",
        "listLotReviews", "putMyLotReview", "deleteMyLotReview",
        "listOperatedSites", "listSiteOperators", "grantSiteOperator", "revokeSiteOperator", "listOperatorChanges",
        "getLotSettings", "updateLotSettings", "setSitePermits", "setSpotOpening", "getSensorHealth", "addLotClosure", "liftLotClosure",
        "listSiteGateways", "addSiteGateway", "revokeSiteGateway", "replaceSiteGatewaySecret",
    ]
}
