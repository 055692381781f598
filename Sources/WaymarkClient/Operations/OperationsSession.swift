extension SessionMiddleware {
    /// Operations-area calls that take the session token (an operator's own figures).
    static let operations: Set<String> = ["getOperatorAnalytics"]
}
