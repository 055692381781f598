import Foundation

/// Everything the server reads at start. The command line fills it from flags over `WAYMARK_*`
/// environment variables over these defaults, which run a working demo with nothing installed.
public struct WaymarkConfiguration: Sendable {
    public enum DatabaseLocation: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(url: String)

        /// A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite file.
        public init(_ text: String) {
            if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
                self = .postgres(url: text)
            } else {
                self = .sqlite(path: text)
            }
        }

        public var kind: String {
            switch self {
            case .sqlite: "sqlite"
            case .postgres: "postgres"
            }
        }
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var database = DatabaseLocation.sqlite(path: "waymark.sqlite")
    /// Load the demo site (California State University, Fullerton) if it is not there yet.
    public var loadDemo = false
    /// Run the gateway emulator in-process against this server.
    public var simulate = false
    /// Simulated seconds per real second for the in-process emulator.
    public var simulationSpeed = 60.0
    /// Largest request body accepted, in bytes.
    public var maxBodyBytes = 1 << 20
    /// For an operator's IMDF archive upload (`importVenue`).
    public var maxImportBytes = 64 << 20
    /// Run the half-hourly snapshot and retention jobs (tests switch them off and call them).
    public var runJobs = true
    /// Directory with the web app; nil looks for `Web/` in the working directory.
    public var webDirectory: String?
    /// How long live events are kept for clients that reconnect.
    public var liveRetention: TimeInterval = 24 * 3600
    public var logLevel = "info"
    /// Raster base map for clients; OpenStreetMap's standard tiles by default (their usage
    /// policy asks heavy users to run their own tile server: set this to it).
    public var tileURLTemplate = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public var tileAttribution = "© OpenStreetMap contributors"
    public var tileMaxZoom = 19
    /// Aerial imagery for the map's Default / Satellite switch; empty (the default) hides the
    /// switch, since no imagery is free to use without an agreement with its provider.
    public var satelliteTileURLTemplate = ""
    public var satelliteTileAttribution = ""
    public var satelliteTileMaxZoom = 19
    /// Map images through this server (`/tiles/…`), counted per day for operators (PRK-20);
    /// set on its own, or by a daily limit.
    public var countMapUsage = false
    /// Map images a day (on the analytics' day) after which the server refuses them until the
    /// next day and the app shows its plain map: a provider's budget, or its fair-use policy.
    public var mapTileDailyLimit: Int?
    /// Whether clients are sent through the tile proxy.
    public var proxiesTiles: Bool { countMapUsage || mapTileDailyLimit != nil }
    /// bcrypt cost of stored passwords (ACC-6). Each step doubles the work; 12 takes about a
    /// quarter of a second here. Lower values are for tests only.
    public var passwordHashCost = 12
    /// Outgoing mail (password reset codes, ACC-9). Without a host, resets answer 503.
    public var smtp = SMTPSettings()
    /// Behind a reverse proxy, the client address (sign-in throttling) comes from the first
    /// `X-Forwarded-For` entry; otherwise from the connection, and the header is ignored.
    public var trustForwardedFor = false
    /// New guest identities and accounts per client address and 10 minutes. A campus behind
    /// one NAT address needs more than the default; so does a fuzzer.
    public var identityLimitPerAddress = 60
    /// Writes (POST, PUT, PATCH, DELETE; gateways aside) each client may make per second, with
    /// `writeBurst` at once; above it 429 with `Retry-After`. 0 turns the limit off (load and
    /// crash tests, which judge other things).
    public var writeRatePerSecond = 10.0
    public var writeBurst = 60
    /// Origins (`https://app.example.com`) whose web pages may call the API from a browser.
    /// Empty, the default: only Waymark's own web app, which is same-origin.
    public var corsOrigins: [String] = []
    /// Top-ups through `DemoPaymentProvider`, which credits wallets without charging anyone
    /// (PRK-13). Off by default; on with the demo site unless WAYMARK_DEMO_PAYMENTS says otherwise.
    /// With it off and no real provider configured, top-ups answer 503.
    public var demoPayments = false
    /// The card processor behind top-ups (PRK-13; Stripe's API): its secret key, the signing
    /// secret of the webhook endpoint it posts to (`/v1/payments/card/events`), and the
    /// publishable key the web app confirms payments with. All three, or card payments stay off
    /// (WAYMARK_CARD_SECRET_KEY, WAYMARK_CARD_WEBHOOK_SECRET, WAYMARK_CARD_PUBLISHABLE_KEY).
    public var cardSecretKey: String?
    public var cardWebhookSecret: String?
    public var cardPublishableKey: String?
    /// Where the processor's API answers (WAYMARK_CARD_API_URL); tests point it at a local server.
    public var cardAPIURL = "https://api.stripe.com"

    /// Card payments are on: every key is there.
    public var cardPayments: Bool { cardSecretKey != nil && cardWebhookSecret != nil && cardPublishableKey != nil }
    /// Transit tickets from `DemoTicketProvider` (PLN-9), marked as not valid for travel. On with
    /// the demo unless WAYMARK_DEMO_TICKETS says otherwise; off, "Buy ticket" answers 503.
    public var demoTickets = false
    /// How often time to leave looks for trips to announce (PLN-7): a minute matches the clock
    /// people read; a deployment may check more often (WAYMARK_LEAVE_ALERT_SECONDS).
    public var leaveAlertSeconds = 60
    /// How many of one person's bookings may cover the same moment, over all lots (PRK-12): two
    /// lets a driver book for a guest or a second car; more would let one account tie up spaces
    /// it cannot use (WAYMARK_OVERLAPPING_BOOKINGS).
    public var overlappingBookingsLimit = 2
    /// The longest a working sensor stays quiet, keep-alives included; a spot whose sensor has
    /// been silent longer is shown as unknown (WAYMARK_SENSOR_KEEPALIVE_MINUTES).
    public var sensorKeepAlive: TimeInterval = 90 * 60
    /// The bearer token a metrics scraper sends for `/metrics`; operators' sessions are let in
    /// too. Unset, only operators read metrics (WAYMARK_METRICS_TOKEN).
    public var metricsToken: String?
    /// PEM files for serving HTTPS (and HTTP/2 where the client offers it) without a reverse
    /// proxy; both or neither (WAYMARK_TLS_CERTIFICATE, WAYMARK_TLS_KEY). Geolocation, the
    /// service worker and Web Push need a secure origin beyond localhost.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Hosts that Web Push subscriptions may point at (PRK-22): the browsers' push services.
    /// An entry starting with "." matches its subdomains. The server posts to a subscription's
    /// endpoint, so any other address is refused: nobody can make it call an inside address.
    public var pushHosts = [
        "fcm.googleapis.com", "android.googleapis.com", ".push.services.mozilla.com",
        "web.push.apple.com", ".notify.windows.com",
    ]
    /// The contact push services see in each VAPID token (RFC 8292 `sub`); the mail sender's
    /// address when nil.
    public var pushContact: String?
    /// Open-Meteo's address for trail forecasts (TRL-3); nil turns weather off (the trail page
    /// says so). Tests point it at a local server with recorded answers.
    public var weatherURL: String? = "https://api.open-meteo.com"
    /// OSRM servers for trips on real streets (PLN-5), one per profile since OSRM serves one per
    /// process: walking, cycling, and driving (car and ride share). Each is optional; without any
    /// the planner estimates every trip from the distance on the ground.
    public var osrmFootURL: String?
    public var osrmBikeURL: String?
    public var osrmCarURL: String?
    /// Where "Thursday morning" is for the weekly trail suggestions (TRL-7): the catalogue's region.
    public var trailsTimeZone = "America/Los_Angeles"

    public init() {}

    /// Reads `WAYMARK_*` variables over the defaults.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        var c = Self()
        if let v = env["WAYMARK_HOST"] { c.host = v }
        if let v = env["WAYMARK_PORT"].flatMap(Int.init) { c.port = v }
        if let v = env["WAYMARK_DATABASE"] ?? env["DATABASE_URL"] { c.database = DatabaseLocation(v) }
        if let v = env["WAYMARK_DEMO"] { c.loadDemo = Self.truthy(v) }
        c.demoPayments = env["WAYMARK_DEMO_PAYMENTS"].map(Self.truthy) ?? c.loadDemo
        if let v = env["WAYMARK_CARD_SECRET_KEY"], !v.isEmpty { c.cardSecretKey = v }
        if let v = env["WAYMARK_CARD_WEBHOOK_SECRET"], !v.isEmpty { c.cardWebhookSecret = v }
        if let v = env["WAYMARK_CARD_PUBLISHABLE_KEY"], !v.isEmpty { c.cardPublishableKey = v }
        if let v = env["WAYMARK_CARD_API_URL"], !v.isEmpty { c.cardAPIURL = v }
        c.demoTickets = env["WAYMARK_DEMO_TICKETS"].map(Self.truthy) ?? c.loadDemo
        if let v = env["WAYMARK_LEAVE_ALERT_SECONDS"].flatMap(Int.init), (1...3600).contains(v) { c.leaveAlertSeconds = v }
        if let v = env["WAYMARK_METRICS_TOKEN"], !v.isEmpty { c.metricsToken = v }
        if let v = env["WAYMARK_TLS_CERTIFICATE"], !v.isEmpty { c.tlsCertificatePath = v }
        if let v = env["WAYMARK_TLS_KEY"], !v.isEmpty { c.tlsKeyPath = v }
        if let v = env["WAYMARK_OVERLAPPING_BOOKINGS"].flatMap(Int.init), (1...50).contains(v) { c.overlappingBookingsLimit = v }
        if let v = env["WAYMARK_SENSOR_KEEPALIVE_MINUTES"].flatMap(Int.init), (5...1440).contains(v) { c.sensorKeepAlive = TimeInterval(v * 60) }
        if let v = env["WAYMARK_SIMULATE"] { c.simulate = Self.truthy(v) }
        if let v = env["WAYMARK_SIMULATION_SPEED"].flatMap(Double.init) { c.simulationSpeed = v }
        if let v = env["WAYMARK_MAX_BODY_BYTES"].flatMap(Int.init) { c.maxBodyBytes = v }
        if let v = env["WAYMARK_MAX_IMPORT_BYTES"].flatMap(Int.init) { c.maxImportBytes = v }
        if let v = env["WAYMARK_WEB_DIRECTORY"] { c.webDirectory = v }
        if let v = env["WAYMARK_LOG_LEVEL"] { c.logLevel = v }
        if let v = env["WAYMARK_TILE_URL"] { c.tileURLTemplate = v }
        if let v = env["WAYMARK_TILE_ATTRIBUTION"] { c.tileAttribution = v }
        if let v = env["WAYMARK_TILE_MAX_ZOOM"].flatMap(Int.init) { c.tileMaxZoom = v }
        if let v = env["WAYMARK_SATELLITE_TILE_URL"] { c.satelliteTileURLTemplate = v }
        if let v = env["WAYMARK_SATELLITE_TILE_ATTRIBUTION"] { c.satelliteTileAttribution = v }
        if let v = env["WAYMARK_SATELLITE_TILE_MAX_ZOOM"].flatMap(Int.init) { c.satelliteTileMaxZoom = v }
        if let v = env["WAYMARK_MAP_COUNT_USAGE"] { c.countMapUsage = Self.truthy(v) }
        if let v = env["WAYMARK_MAP_TILE_DAILY_LIMIT"].flatMap(Int.init), v > 0 { c.mapTileDailyLimit = v }
        if let v = env["WAYMARK_PASSWORD_COST"].flatMap(Int.init) { c.passwordHashCost = v }
        if let v = env["WAYMARK_IDENTITY_LIMIT"].flatMap(Int.init), v > 0 { c.identityLimitPerAddress = v }
        if let v = env["WAYMARK_WRITE_RATE"].flatMap(Double.init), v >= 0, v.isFinite { c.writeRatePerSecond = v }
        if let v = env["WAYMARK_WRITE_BURST"].flatMap(Int.init), v > 0 { c.writeBurst = v }
        if let v = env["WAYMARK_CORS_ORIGINS"] {
            c.corsOrigins = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let v = env["WAYMARK_PUSH_HOSTS"] {
            c.pushHosts = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        }
        if let v = env["WAYMARK_PUSH_CONTACT"], !v.isEmpty { c.pushContact = v }
        if let v = env["WAYMARK_TRAILS_TIME_ZONE"], TimeZone(identifier: v) != nil { c.trailsTimeZone = v }
        if let v = env["WAYMARK_WEATHER_URL"] { c.weatherURL = (v.isEmpty || v.lowercased() == "off") ? nil : v }
        if let v = env["WAYMARK_OSRM_FOOT_URL"] { c.osrmFootURL = Self.address(v) }
        if let v = env["WAYMARK_OSRM_BIKE_URL"] { c.osrmBikeURL = Self.address(v) }
        if let v = env["WAYMARK_OSRM_CAR_URL"] { c.osrmCarURL = Self.address(v) }
        if let v = env["WAYMARK_TRUST_FORWARDED_FOR"] { c.trustForwardedFor = Self.truthy(v) }
        if let v = env["WAYMARK_SMTP_HOST"], !v.isEmpty { c.smtp.host = v }
        if let v = env["WAYMARK_SMTP_PORT"].flatMap(Int.init) { c.smtp.port = v }
        if let v = env["WAYMARK_SMTP_USERNAME"] { c.smtp.username = v }
        if let v = env["WAYMARK_SMTP_PASSWORD"] { c.smtp.password = v }
        if let v = env["WAYMARK_SMTP_FROM"] { c.smtp.from = v }
        if let v = env["WAYMARK_SMTP_SECURITY"].flatMap(SMTPSettings.Security.init(rawValue:)) { c.smtp.security = v }
        return c
    }

    static func truthy(_ v: String) -> Bool {
        ["1", "true", "yes", "on"].contains(v.lowercased())
    }

    /// An optional service's address; empty or "off" is none.
    static func address(_ v: String) -> String? {
        let v = v.trimmingCharacters(in: .whitespaces)
        return v.isEmpty || v.lowercased() == "off" ? nil : v
    }
}

public struct SMTPSettings: Sendable, Equatable {
    public enum Security: String, Sendable {
        /// Plain SMTP, for a relay on the same machine or private network.
        case none
        /// Upgrade with STARTTLS before authenticating (port 587).
        case starttls
        /// TLS from the first byte (port 465).
        case tls
    }

    public var host: String?
    public var port = 25
    public var username: String?
    public var password: String?
    public var from = "Waymark <noreply@waymark.local>"
    public var security = Security.none

    public init() {}
}
