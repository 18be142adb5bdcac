import Testing

@testable import Signing

/// The key's public half keeps a notification-sized message whole with its signature (`MadeSignatures`): the same
/// bytes open without hashing, and a message that differs in one byte, or by its length, under that signature is
/// refused as verification would refuse it; one past what is kept whole is kept by its digest.
@Suite struct MadeSignaturesTests {
    private let seed = Digest.sha256(Array("made signatures tests".utf8))

    @Test func aKeptMessageOpensOnlyWithItsOwnBytes() throws {
        let key = try #require(SigningKey(seed: seed))
        let message = [UInt8](repeating: 0x61, count: 1_500)
        let signature = key.sign(message)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        var altered = message
        altered[700] = 0x62
        #expect(!key.publicKey.isValidSignature(signature, for: altered))
        #expect(!key.publicKey.isValidSignature(signature, for: Array(message.dropLast())))
        // A message past what is kept whole is kept by its digest, and still opens.
        let long = [UInt8](repeating: 0x63, count: MadeSignatures.keptMessageBytes + 1)
        let longSignature = key.sign(long)
        #expect(key.publicKey.isValidSignature(longSignature, for: long))
        var longAltered = long
        longAltered[0] = 0x64
        #expect(!key.publicKey.isValidSignature(longSignature, for: longAltered))
    }
}
