import Foundation
import NIOCore
import NIOPosix
import NIOSSL

struct OutgoingMail: Sendable {
    var to: String
    var subject: String
    var text: String
}

/// Where mail goes. `SMTPMailer` is the real one; tests talk to a real local SMTP server.
protocol Mailer: Sendable {
    func send(_ mail: OutgoingMail) async throws
}

enum SMTPError: Error, CustomStringConvertible {
    case unexpectedReply(command: String, reply: String)
    case closed
    case lineTooLong
    case timedOut

    var description: String {
        switch self {
        case .unexpectedReply(let command, let reply): "SMTP \(command) answered \(reply)"
        case .closed: "SMTP server closed the connection"
        case .lineTooLong: "SMTP reply line too long"
        case .timedOut: "SMTP conversation timed out"
        }
    }
}

/// A small SMTP client (RFC 5321): EHLO, optional STARTTLS or implicit TLS, AUTH PLAIN, one
/// message. Enough for a relay or a mail provider's submission port.
struct SMTPMailer: Mailer {
    let settings: SMTPSettings
    let group: any EventLoopGroup
    var timeout: Duration = .seconds(30)

    func send(_ mail: OutgoingMail) async throws {
        guard let host = settings.host else { throw SMTPError.closed }
        let settings = self.settings
        let tls = settings.security == .none ? nil : try NIOSSLContext(configuration: .makeClientConfiguration())
        // SNI and certificate names are host names, never address literals.
        let serverName = host.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" }) ? nil : host
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if settings.security == .tls, let tls {
                        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPLineDecoder()))
                    return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let underlying = channel.channel
        let timeout = self.timeout
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    var conversation = SMTPConversation(lines: inbound.makeAsyncIterator(), outbound: outbound)
                    try await conversation.expect(220, after: "greeting")
                    try await conversation.command("EHLO waymark", expect: 250)
                    if settings.security == .starttls, let tls {
                        try await conversation.command("STARTTLS", expect: 220)
                        let handler = try NIOSSLClientHandler(context: tls, serverHostname: serverName)
                        try await underlying.pipeline.addHandler(handler, position: .first).get()
                        try await conversation.command("EHLO waymark", expect: 250)
                    }
                    if let user = settings.username, let password = settings.password, !user.isEmpty {
                        let plain = Data(([0] + Array(user.utf8) + [0] + Array(password.utf8))).base64EncodedString()
                        try await conversation.command("AUTH PLAIN " + plain, expect: 235, redacted: "AUTH PLAIN ***")
                    }
                    try await conversation.command("MAIL FROM:<\(Self.address(settings.from))>", expect: 250)
                    try await conversation.command("RCPT TO:<\(mail.to)>", expect: 250, 251)
                    try await conversation.command("DATA", expect: 354)
                    try await conversation.write(Self.message(mail, from: settings.from) + "\r\n.\r\n")
                    try await conversation.expect(250, after: "message")
                    try? await conversation.command("QUIT", expect: 221)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                underlying.close(promise: nil)
                throw SMTPError.timedOut
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// "Waymark <noreply@x>" → "noreply@x".
    static func address(_ from: String) -> String {
        guard let open = from.lastIndex(of: "<"), let close = from.lastIndex(of: ">"), open < close else { return from }
        return String(from[from.index(after: open)..<close])
    }

    /// Headers and a dot-stuffed text body with CRLF line ends.
    static func message(_ mail: OutgoingMail, from: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let headers = [
            "From: \(from)",
            "To: <\(mail.to)>",
            "Subject: \(mail.subject)",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(UUID().uuidString.lowercased())@waymark>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ]
        let body = mail.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return (headers + [""] + body).joined(separator: "\r\n")
    }
}

struct SMTPConversation {
    var lines: NIOAsyncChannelInboundStream<String>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    mutating func write(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    mutating func command(_ line: String, expect codes: Int..., redacted: String? = nil) async throws {
        try await write(line + "\r\n")
        let reply = try await readReply()
        guard codes.contains(reply.code) else {
            throw SMTPError.unexpectedReply(command: redacted ?? String(line.prefix(16)), reply: reply.text)
        }
    }

    mutating func expect(_ code: Int, after what: String) async throws {
        let reply = try await readReply()
        guard reply.code == code else { throw SMTPError.unexpectedReply(command: what, reply: reply.text) }
    }

    /// A reply may span lines "250-…"; the last one has a space after the code.
    mutating func readReply() async throws -> (code: Int, text: String) {
        var text: [String] = []
        while true {
            guard let line = try await lines.next() else { throw SMTPError.closed }
            text.append(line)
            let chars = Array(line)
            if chars.count < 4 || chars[3] != "-" {
                return (Int(String(chars.prefix(3))) ?? 0, text.joined(separator: " | "))
            }
            if text.count > 100 { throw SMTPError.lineTooLong }
        }
    }
}

/// Splits the byte stream into lines without their CRLF.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > 4096 { throw SMTPError.lineTooLong }
            return .needMoreData
        }
        var line = buffer.readString(length: newline - buffer.readerIndex + 1) ?? ""
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}
