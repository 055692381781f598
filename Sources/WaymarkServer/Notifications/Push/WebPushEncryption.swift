import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// one record, readable only by the browser that made the subscription's keys. The push
/// service carries bytes it cannot open.
enum WebPushEncryption {
    /// The record size written in the header; one record holds the whole message.
    static let recordSize = 4096
    /// Salt (16), record size (4), key id length (1), the sender's public key (65).
    static let headerLength = 86
    static let tagLength = 16
    /// Push services take bodies of up to 4,096 bytes: what fits beside the header, the
    /// padding delimiter and the tag.
    static let maxPlaintext = 4096 - headerLength - tagLength - 1

    enum Failure: Error, Equatable {
        case badSubscriptionKey
        case badAuthSecret
        case tooLarge
    }

    /// - Parameters:
    ///   - p256dh: the subscription's public key, an uncompressed P-256 point (65 bytes).
    ///   - auth: the subscription's authentication secret (16 bytes).
    ///   - sender: a new key pair per message; given only by tests that check known output.
    ///   - padBlock: the record is padded to a multiple of this, so that its size tells little
    ///     of what it says.
    static func encrypt(_ plaintext: Data, p256dh: Data, auth: Data,
                        sender: P256.KeyAgreement.PrivateKey = .init(), salt: Data = Secrets.randomBytes(16),
                        padBlock: Int = 128) throws -> Data {
        guard auth.count == 16 else { throw Failure.badAuthSecret }
        guard p256dh.count == 65, p256dh.first == 0x04,
              let receiver = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else { throw Failure.badSubscriptionKey }
        guard plaintext.count <= maxPlaintext else { throw Failure.tooLarge }
        let senderPublic = sender.publicKey.x963Representation
        let shared = try sender.sharedSecretFromKeyAgreement(with: receiver)

        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(p256dh)
        keyInfo.append(senderPublic)
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt,
                                         info: Data("Content-Encoding: aes128gcm\u{0}".utf8), outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt,
                                                info: Data("Content-Encoding: nonce\u{0}".utf8), outputByteCount: 12)
            .withUnsafeBytes { Data($0) }

        // The last (and only) record ends with the delimiter 2, then zeros up to the padding.
        var record = plaintext
        record.append(2)
        let padded = min(maxPlaintext + 1, (record.count + padBlock - 1) / padBlock * padBlock)
        record.append(Data(count: max(0, padded - record.count)))
        let sealed = try AES.GCM.seal(record, using: cek, nonce: try AES.GCM.Nonce(data: nonceBytes))

        var out = Data(capacity: headerLength + record.count + tagLength)
        out.append(salt)
        withUnsafeBytes(of: UInt32(recordSize).bigEndian) { out.append(contentsOf: $0) }
        out.append(UInt8(senderPublic.count))
        out.append(senderPublic)
        out.append(sealed.ciphertext)
        out.append(sealed.tag)
        return out
    }
}
