import Foundation

/// The Accounts area: identities and sessions, profiles, password resets, the wallet and the
/// throttles that guard them.
struct AccountsServices: Sendable {
    let queries: AccountQueries
    let sessions: Sessions
    let identities: AccountService
    let profiles: ProfileService
    let wallet: WalletService
    /// Top-ups by card; nil without the card processor's keys.
    let cardTopUps: CardTopUpService?
    let passwordResets: PasswordResetService
    let throttles: Throttles
    /// Areas register what they keep of a person here (`PersonalData`).
    let personalData = PersonalDataRegistry()

    init(_ env: WaymarkEnvironment, hasher: PasswordHasher) {
        let store = env.store, now = env.now
        queries = AccountQueries(store: store)
        sessions = Sessions(store: store)
        throttles = Throttles(store: store)
        identities = AccountService(store: store, queries: queries, hasher: hasher, throttles: throttles,
                                    personalData: personalData, now: now,
                                    identityLimit: env.configuration.identityLimitPerAddress)
        profiles = ProfileService(store: store, queries: queries, now: now)
        wallet = WalletService(store: store, provider: env.payments, now: now)
        cardTopUps = env.card.map { CardTopUpService(store: store, processor: $0, now: now, logger: env.logger) }
        passwordResets = PasswordResetService(store: store, queries: queries, accounts: identities, throttles: throttles,
                                              mailer: env.mailer, now: now, logger: env.logger)
    }

    /// With jobs, an hourly removal of expired sessions and idle throttle counters: dead
    /// weight, and an hour is soon enough.
    func start(_ background: BackgroundTasks, jobs: Bool, environment env: WaymarkEnvironment) {
        guard jobs else { return }
        let sessions = sessions, throttles = throttles
        if let cardTopUps { background.start { await cardTopUps.run() } }
        background.start {
            while !Task.isCancelled {
                try? await sessions.prune(now: env.now())
                try? await throttles.prune(now: env.now())
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }
}

extension AccountsServices {
    /// The area's operations that need a signed-in person (`UserAuthMiddleware`).
    static let signedInOperations: Set<String> = [
        "signOut", "getMe", "updateProfile", "changeUsername", "changePassword", "deleteAccount",
        "uploadPicture", "removePicture", "getPermits", "setPermits", "getWallet", "getWalletHistory",
        "topUpWallet", "getCardTopUp", "exportMyData",
    ]
}
