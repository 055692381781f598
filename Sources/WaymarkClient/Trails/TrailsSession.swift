extension SessionMiddleware {
    /// Trails calls that take the session token: favourites, and operators' imports and edits.
    static let trails: Set<String> = [
        "importTrails", "updateTrail", "deleteTrail", "uploadTrailPicture",
        "listTrailFavourites", "addTrailFavourite", "removeTrailFavourite",
        "listTrailComments", "putMyTrailComment", "deleteMyTrailComment", "voteTrailComment", "reportTrailComment",
        "listReportedTrailComments", "moderateTrailComment",
    ]
}
