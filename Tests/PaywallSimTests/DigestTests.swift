import Signing
import SimKernel
import Testing

/// Hashes and MACs come from algorithms libcrypto fetched once, and an HMAC key is set up once and
/// copied for each message: the answers must be the standard's, and a key used many times must answer
/// as a fresh one.
@Suite struct DigestTests {
    @Test func sha256IsTheStandardsDigest() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        #expect(Hex.encode(Digest.sha256(Array("abc".utf8))) == abc)
        #expect(Hex.encode(Digest.sha256([])) == empty)
    }

    /// RFC 4231, test cases 1 and 2.
    @Test func hmacIsRFC4231s() {
        let first = HMACKey([UInt8](repeating: 0x0b, count: 20)).mac(Array("Hi There".utf8))
        #expect(Hex.encode(first) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let second = Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(second) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aKeptKeyAnswersAsAFreshOne() {
        var generator = SeededGenerator(seed: 12)
        let key = generator.bytes(32)
        let kept = HMACKey(key)
        for length in 0..<150 {
            let message = generator.bytes(length)
            #expect(kept.mac(message) == HMACKey(key).mac(message))
        }
    }
}
