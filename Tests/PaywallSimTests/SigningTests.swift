import Foundation
import Signing
import SimKernel
import Testing

@testable import BackendSim
@testable import Simulation

/// ES256 envelopes as Apple signs them, envelopes an earlier build signed with Ed25519, and the
/// password work factor a world is given.
@Suite struct SigningTests {
    private let seed = Digest.sha256(Array("signing tests".utf8))

    @Test func anES256EnvelopeOpensWithItsKeyOnly() throws {
        let key = try #require(SigningKey(seed: seed))
        let sealed = SignedEnvelope.seal(Array("payload".utf8), with: key)
        let parts = sealed.split(separator: ".")
        let header = try #require(Base64URL.decode(parts[0]).flatMap { String(decoding: $0, as: UTF8.self) })
        #expect(header.hasPrefix(#"{"alg":"ES256","x5c":[""#))
        #expect(Base64URL.decode(parts[2])?.count == 64)
        #expect(SignedEnvelope.open(sealed, with: key.publicKey) == Array("payload".utf8))
        let other = try #require(SigningKey(seed: Digest.sha256(Array("another".utf8))))
        #expect(SignedEnvelope.open(sealed, with: other.publicKey) == nil)
        let tampered = parts[0] + "." + Base64URL.encode(Array("payloaf".utf8)) + "." + parts[2]
        #expect(SignedEnvelope.open(tampered, with: key.publicKey) == nil)
        #expect(SignedEnvelope.open(sealed + "x", with: key.publicKey) == nil)
    }

    /// A key's public half answers the signatures its private half made lately without the arithmetic
    /// (`MadeSignatures`): the same answers as a key held apart from the private half, which verifies each.
    @Test func aKeysOwnSignaturesOpenAsVerificationWouldAnswer() throws {
        let key = try #require(SigningKey(seed: seed))
        let apart = VerifyingKey(p256: key.publicKey.rawBytes, legacyEd25519: [])
        let first = SignedEnvelope.seal(Array("first".utf8), with: key)
        let second = SignedEnvelope.seal(Array("second".utf8), with: key)
        let sealer = EnvelopeSealer()
        let receipt = sealer.seal(Array("a receipt".utf8), unchanged: 0, with: key)
        for verifier in [key.publicKey, apart] {
            #expect(SignedEnvelope.open(first, with: verifier) == Array("first".utf8))
            #expect(SignedEnvelope.open(second, with: verifier) == Array("second".utf8))
            #expect(SignedEnvelope.open(receipt, with: verifier) == Array("a receipt".utf8))
            // A signature the key made, under another message: refused.
            let one = first.split(separator: "."), two = second.split(separator: ".")
            #expect(SignedEnvelope.open(one[0] + "." + one[1] + "." + two[2], with: verifier) == nil)
            #expect(SignedEnvelope.open(two[0] + "." + two[1] + "." + one[2], with: verifier) == nil)
        }
        let other = try #require(SigningKey(seed: Digest.sha256(Array("another".utf8))))
        #expect(SignedEnvelope.open(first, with: other.publicKey) == nil)
        #expect(!other.publicKey.isValidSignature(key.sign(Array("m".utf8)), for: Array("m".utf8)))
        // Past what the key keeps, its oldest signatures still verify, by the arithmetic.
        for index in 0..<300 { _ = key.sign(Array("filler \(index)".utf8)) }
        #expect(SignedEnvelope.open(first, with: key.publicKey) == Array("first".utf8))
        #expect(SignedEnvelope.open(receipt, with: key.publicKey) == Array("a receipt".utf8))
    }

    /// A state folder from before ES256 holds receipts signed with Ed25519 from the same seed: they still open.
    @Test func anEnvelopeAnEarlierBuildSignedStillOpens() throws {
        let key = try #require(SigningKey(seed: seed))
        let input = Base64URL.encode(Array(#"{"alg":"EdDSA","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode([1, 2, 3])
        let legacy = input + "." + Base64URL.encode(SigningKey.legacySignature(seed: seed, Array(input.utf8)))
        #expect(SignedEnvelope.open(legacy, with: key.publicKey) == [1, 2, 3])
        let other = try #require(SigningKey(seed: Digest.sha256(Array("another".utf8))))
        #expect(SignedEnvelope.open(legacy, with: other.publicKey) == nil)
    }

    @Test func aWorldInMemoryHashesPasswordsWithTheMinimalWorkAndAFolderWithTheFull() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig()
        for (stateDirectory, iterations) in [
            (nil, PasswordHash.minimalIterations), (directory, PasswordHash.defaultIterations),
        ] {
            let world = try World(config: config, options: WorldOptions(stateDirectory: stateDirectory))
            let body = Array(#"{"email":"a@b.test","password":"long enough"}"#.utf8)
            let created = world.backend.handle(
                HTTPRequest(
                    method: "POST", path: "/v1/accounts", headers: ["Content-Type": "application/json"], body: body))
            #expect(created.status == 201)
            let hash = try #require(try world.backend.ledger.account(email: "a@b.test")?.1)
            #expect(hash.iterations == iterations)
            let login = world.backend.handle(
                HTTPRequest(
                    method: "POST", path: "/v1/sessions", headers: ["Content-Type": "application/json"], body: body))
            #expect(login.status == 200)
        }
    }
}
