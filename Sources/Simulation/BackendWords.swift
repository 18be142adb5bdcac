import Foundation
import SimKernel
import Subscriptions

/// What the backend told each phone, as the app heard it: for each identity, the levels of the
/// last answer that named it. The first invariant holds every phone to these words.
struct BackendWords {
    /// Phone name → identity id → levels.
    private var heard: [String: [String: Set<String>]] = [:]

    private struct Answer: Decodable {
        struct Identity: Decodable { let id: String }
        let identity: Identity
        let levels: [String]
    }

    /// Keeps the levels of an answer that names an identity (receipts, restores, sessions, `me`…).
    mutating func record(_ response: HTTPResponse, on phone: String) {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(response.body)) else { return }
        heard[phone, default: [:]][answer.identity.id] = Set(answer.levels)
    }

    /// The levels the phone last heard for `identityId`; empty when it never heard of it.
    func levels(on phone: String, identityId: String) -> Set<String> {
        heard[phone]?[identityId] ?? []
    }
}
