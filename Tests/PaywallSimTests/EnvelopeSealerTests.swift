import SimKernel
import Testing

@testable import Signing

/// A sealer that carries on from its last payload's encoding and hash must seal what sealing the whole
/// payload seals: the same signing input, a signature that verifies, whatever changed since.
@Suite struct EnvelopeSealerTests {
    @Test func aPayloadSealedFromTheLastOneIsSealedAsAWholeOne() throws {
        let keys = try [1, 2].map { try #require(SigningKey(seed: [UInt8](repeating: $0, count: 32))) }
        let sealer = EnvelopeSealer()
        var generator = SeededGenerator(seed: 16)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(32 + generator.next() % 90) } }
        var payload = bytes(150_000)
        var unchanged = 0
        for round in 0..<40 {
            let key = round % 9 == 8 ? keys[1] : keys[0]
            switch generator.next() % 5 {
            case 0, 1:
                payload += bytes(Int(generator.next() % 70_000))
            case 2:
                let at = Int(generator.next() % UInt64(payload.count))
                payload[at] ^= 1
                unchanged = min(unchanged, at)
            case 3:
                let count = Int(generator.next() % UInt64(payload.count))
                payload.removeLast(count)
                unchanged = min(unchanged, payload.count)
            default:
                unchanged = 0
            }
            let envelope = sealer.seal(payload, unchanged: unchanged, with: key)
            let whole = SignedEnvelope.seal(payload, with: key)
            #expect(envelope.split(separator: ".").dropLast() == whole.split(separator: ".").dropLast())
            #expect(SignedEnvelope.open(envelope, with: key.publicKey) == payload)
            #expect(SignedEnvelope.open(envelope, with: keys[round % 9 == 8 ? 0 : 1].publicKey) == nil)
            unchanged = payload.count
        }
    }
}
