extension SessionMiddleware {
    /// Trails calls that take the session token: favourites, comments, forum posts, and operators'
    /// imports, edits and moderation, hikes,
    /// friends, messages and location sharing.
    static let trails: Set<String> = [
        "importTrails", "updateTrail", "deleteTrail", "uploadTrailPicture",
        "listTrailFavourites", "addTrailFavourite", "removeTrailFavourite",
        "listTrailComments", "putMyTrailComment", "deleteMyTrailComment", "voteTrailComment", "reportTrailComment",
        "listReportedTrailComments", "moderateTrailComment",
        "listTrailForumPosts", "putTrailForumPost", "deleteTrailForumPost", "reportTrailForumPost",
        "listReportedTrailForumPosts", "moderateTrailForumPost",
        "getHikerBody", "putHikerBody", "listMyHikes", "getMyHike", "saveMyHike", "deleteMyHike", "getMyHikeGPX",
        "getMyScavengerHunt", "markScavengerFind",
        "searchPeople", "getFriends", "befriend", "unfriend", "blockPerson", "unblockPerson",
        "listThreads", "createThread", "getThread", "addThreadMember", "removeThreadMember",
        "listThreadMessages", "putThreadMessage", "deleteThreadMessage", "markThreadRead", "streamThread",
        "getLocationSharing", "setLocationSharing", "reportSharedPosition", "listFriendPositions",
        "listFriendHikes", "getFriendHike",
    ]
}
