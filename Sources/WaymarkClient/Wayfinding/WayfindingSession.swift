extension SessionMiddleware {
    /// Wayfinding calls that take the session token (an operator replacing a venue or directory).
    static let wayfinding: Set<String> = ["importVenue", "replaceDirectory"]
}
