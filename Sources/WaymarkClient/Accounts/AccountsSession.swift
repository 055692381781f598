extension SessionMiddleware {
    /// Accounts operations that take the session token (optionally for `register` and `signIn`,
    /// which turn a device identity into an account).
    static let accounts: Set<String> = [
        "register", "signIn", "signOut", "getMe", "updateProfile", "changeUsername", "changePassword",
        "deleteAccount", "uploadPicture", "removePicture", "getPermits", "setPermits",
        "getWallet", "getWalletHistory", "topUpWallet", "getCardTopUp", "exportMyData",
    ]
}
