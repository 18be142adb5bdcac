import Foundation
import SimKernel
import Testing

@testable import BackendSim

/// The answers written by hand are `JSONEncoder`'s bytes with sorted keys, on thousands of seeded answers
/// with every escape JSON has, nil fields and empty lists; text beyond ASCII goes to the encoder.
@Suite struct AccessBodyJSONTests {
    private let pieces = [
        "", "anon-000001", "acct-000042", "a/b", "quote\"d", "back\\slash", "tab\tline\nfeed\r", "\u{01}\u{1F}",
        "\u{08}\u{0C}", "reader@example.test", "eyJhbGciOiJIUzI1NiJ9.e30.sig-_", "premium", "{}[],:",
    ]

    private func text(_ random: inout SeededGenerator) -> String {
        (0..<Int(random.next() % 3)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    private func list(_ random: inout SeededGenerator) -> [String] {
        (0..<Int(random.next() % 4)).map { _ in text(&random) }
    }

    private func maybe(_ random: inout SeededGenerator) -> String? {
        random.next() % 3 == 0 ? nil : text(&random)
    }

    /// What the hand-written bytes must be.
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private func identity(_ random: inout SeededGenerator) -> Backend.IdentityBody {
        Backend.IdentityBody(
            id: text(&random), kind: random.next() % 2 == 0 ? "anonymous" : "account", token: maybe(&random),
            email: maybe(&random), appAccountToken: maybe(&random))
    }

    /// `levelsUntil`: none, or any milliseconds, negative ones too.
    private func until(_ random: inout SeededGenerator) -> Int64? {
        random.next() % 3 == 0 ? nil : Int64(bitPattern: random.next())
    }

    @Test func handWrittenBytesAreTheEncoders() throws {
        var random = SeededGenerator(seed: 3)
        for _ in 0..<3_000 {
            let answer = Backend.AccessBody(
                identity: identity(&random),
                levels: list(&random), levelsUntil: until(&random), granting: list(&random),
                ownedElsewhere: list(&random),
                restored: list(&random),
                refused: (0..<Int(random.next() % 3)).map { _ in
                    Backend.RefusedBody(originalTransactionId: text(&random), error: text(&random))
                },
                error: maybe(&random))
            #expect(answer.isASCII)
            #expect(answer.json == Array(try encoder.encode(answer)))
            #expect(Backend.response(200, answer).body == answer.json)
        }
    }

    /// The profile's, the session's and a refusal's answers are written by hand too.
    @Test func theOtherHandWrittenAnswersAreTheEncoders() throws {
        var random = SeededGenerator(seed: 4)
        for _ in 0..<1_000 {
            let me = Backend.MeBody(
                identity: identity(&random), levels: list(&random), levelsUntil: until(&random),
                subscriptions: (0..<Int(random.next() % 3)).map { _ in
                    Backend.SubscriptionBody(
                        originalTransactionId: text(&random), productId: text(&random),
                        expires: random.next() % 3 == 0 ? nil : Int64(bitPattern: random.next()),
                        active: random.next() % 2 == 0, autoRenew: random.next() % 2 == 0,
                        billingIssue: random.next() % 2 == 0)
                })
            #expect(me.isASCII)
            #expect(JSONBody.response(200, me).body == Array(try encoder.encode(me)))
            let session = Backend.SessionBody(
                identity: identity(&random), levels: list(&random), levelsUntil: until(&random),
                refreshToken: text(&random),
                subscriptions: me.subscriptions)
            #expect(JSONBody.response(200, session).body == Array(try encoder.encode(session)))
            let refusal = ErrorBody(error: text(&random))
            #expect(JSONBody.response(409, refusal).body == Array(try encoder.encode(refusal)))
        }
        let beyond = ErrorBody(error: "déjà\u{2028}")
        #expect(!beyond.isASCII)
        #expect(JSONBody.response(409, beyond).body == Array(try encoder.encode(beyond)))
    }

    @Test func textBeyondASCIIGoesToTheEncoder() throws {
        let answer = Backend.AccessBody(
            identity: Backend.IdentityBody(
                id: "acct-000001", kind: "account", token: nil, email: "léa@example.test\u{2028}",
                appAccountToken: nil),
            levels: ["premium"])
        #expect(!answer.isASCII)
        #expect(Backend.response(200, answer).body == Array(try encoder.encode(answer)))
    }
}
