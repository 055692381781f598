extension SessionMiddleware {
    /// Trails calls that take the session token: favourites, comments, forum posts, and operators'
    /// imports, edits and moderation.
    static let trails: Set<String> = [
        "importTrails", "updateTrail", "deleteTrail", "uploadTrailPicture",
        "listTrailFavourites", "addTrailFavourite", "removeTrailFavourite",
        "listTrailComments", "putMyTrailComment", "deleteMyTrailComment", "voteTrailComment", "reportTrailComment",
        "listReportedTrailComments", "moderateTrailComment",
        "listTrailForumPosts", "putTrailForumPost", "deleteTrailForumPost", "reportTrailForumPost",
        "listReportedTrailForumPosts", "moderateTrailForumPost",
        "getHikerBody", "putHikerBody", "listMyHikes", "getMyHike", "saveMyHike", "deleteMyHike", "getMyHikeGPX",
        "getMyScavengerHunt", "markScavengerFind",
    ]
}
