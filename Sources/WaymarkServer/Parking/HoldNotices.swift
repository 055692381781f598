import Foundation

/// What a hold tells its holder (PRK-10, PRK-15), posted through Notifications' `Notifier` in
/// the transaction that changed the hold, so that the notice exists exactly when its cause does.
enum HoldNotices {
    static func expired(_ hold: HoldRow) -> NotificationDraft {
        NotificationDraft(userId: hold.userId, kind: .holdExpired, title: "Your hold has ended",
                          body: "Spot \(hold.label) in \(hold.lotName) is no longer held for you: its 10 minutes are up.",
                          lotId: hold.lotId, holdId: hold.id)
    }

    static func asking(_ hold: HoldRow) -> NotificationDraft {
        NotificationDraft(userId: hold.userId, kind: .holdAsking, title: "Was it you?",
                          body: "A car parked on spot \(hold.label) in \(hold.lotName), which you hold. Was it you?",
                          lotId: hold.lotId, holdId: hold.id)
    }

    static func moved(_ next: HoldRow) -> NotificationDraft {
        NotificationDraft(userId: next.userId, kind: .holdMoved, title: "You were moved to another spot",
                          body: "Spot \(next.label) in \(next.lotName) is held for you now.", lotId: next.lotId, holdId: next.id)
    }
}
