import Foundation
import WaymarkAPI

/// Friends, threads, messages and positions as the contract writes them.
enum SocialMapping {
    static func person(_ c: PersonCard) -> Components.Schemas.PersonCard {
        .init(id: c.id, username: c.username, name: c.name, pictureUrl: c.pictureURL)
    }

    static func relation(_ r: Friends.Relation) -> Components.Schemas.FriendRelationKind {
        Components.Schemas.FriendRelationKind(rawValue: r.rawValue) ?? Components.Schemas.FriendRelationKind.none
    }

    static func message(_ m: MessageRow) -> Components.Schemas.Message {
        .init(id: m.id, threadId: m.threadId, author: person(m.author), text: m.text, sequence: m.seq, sentAt: m.sentAt, editedAt: m.editedAt)
    }

    static func thread(_ t: ThreadRow) -> Components.Schemas.MessageThread {
        .init(id: t.id, title: t.title, direct: t.direct, members: t.members.map(person), unreadCount: t.unreadCount,
              lastMessage: t.lastMessage.map(message), updatedAt: t.updatedAt)
    }

    static func position(_ p: LocationSharing.Position) -> Components.Schemas.SharedPosition {
        .init(latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy, reportedAt: p.reportedAt)
    }

    /// A hike as a friend sees it: calories come from the hiker's body figures, which stay theirs.
    static func friendsView(of h: HikeRow) -> HikeRow {
        var shown = h
        shown.calories = nil
        return shown
    }
}
