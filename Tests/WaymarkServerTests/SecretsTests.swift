import Testing
@testable import WaymarkServer

@Suite("Stored secrets (PRK-2, ACC-3)")
struct SecretsTests {
    @Test("PRK-2 secrets are stored as the lower-case hex SHA-256 every earlier version stored")
    func hashIsSHA256Hex() {
        // FIPS 180-2 test vectors: a stored hash written before must still match.
        #expect(Secrets.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secrets.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Secrets.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        let secret = Secrets.make(prefix: "wmg_")
        #expect(secret.hasPrefix("wmg_") && secret.count == 47)
        #expect(Secrets.hash(secret) != Secrets.hash(Secrets.make(prefix: "wmg_")))
    }
}
