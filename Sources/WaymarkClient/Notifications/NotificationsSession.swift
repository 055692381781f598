extension SessionMiddleware {
    /// Notifications operations: all of them are the signed-in person's own.
    static let notifications: Set<String> = [
        "listNotifications", "markNotificationRead", "markAllNotificationsRead", "deleteNotification",
        "streamNotifications", "listWatches", "watchLot", "unwatchLot", "listPushSubscriptions",
        "createPushSubscription", "deletePushSubscription", "getPushPreferences", "setPushPreferences",
    ]
}
