import BackendSim
import FoundationEssentials
import SimKernel
import Subscriptions

/// What the backend told each phone, as the app heard it: for each identity, the levels of the
/// newest answer that named it, by the server's clock. An older answer that arrives late is not the
/// backend's word any more: a phone that shows its levels over a newer answer's breaks invariant 1.
struct BackendWords {
    private struct Word {
        let levels: Set<String>
        let said: ServerStamp
        /// Until when the levels hold at the least, by the server's clock (`levelsUntil`); nil when unsaid.
        let until: Int64?
    }

    /// Phone name → identity id → the newest word.
    private var heard: [String: [String: Word]] = [:]

    private struct Answer: Decodable {
        struct Identity: Decodable { let id: String }
        let identity: Identity
        let levels: [String]
        let levelsUntil: Int64?
    }

    /// Keeps the levels of an answer that names an identity (receipts, restores, sessions, `me`…),
    /// unless the phone already heard a newer one about it.
    mutating func record(_ response: HTTPResponse, on phone: String) {
        guard let (identityId, levels, until) = Self.identityAndLevels(response.body) else { return }
        let said = ServerStamp(response) ?? ServerStamp(time: 0, order: 0)
        if let known = heard[phone]?[identityId], known.said > said { return }
        heard[phone, default: [:]][identityId] = Word(levels: Set(levels), said: said, until: until)
    }

    /// What `Answer` reads of `body`: by `QuickJSON` when the answer is plain (every answer is read after
    /// every request, and Foundation's decoder was most of that), else by `JSONDecoder`; nil for a body
    /// that names no identity. A plain body without the fields is one `JSONDecoder` refuses too.
    static func identityAndLevels(_ body: [UInt8]) -> (String, [String], Int64?)? {
        if let members = QuickJSON.object(body) {
            var fields = QuickFields(members)
            var identity = fields.object("identity")
            let id = identity.string("id")
            let levels = fields.strings("levels")
            let until = fields.optionalInteger("levelsUntil")
            return fields.failed || identity.failed ? nil : (id, levels, until)
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(body)) else { return nil }
        return (answer.identity.id, answer.levels, answer.levelsUntil)
    }

    /// When, by the server's clock, the newest answer the phone heard about `identityId` was given; nil when none.
    func saidAt(on phone: String, identityId: String) -> Int64? {
        heard[phone]?[identityId]?.said.time
    }

    /// Until when the levels the phone last heard for `identityId` hold at the least; nil when unsaid.
    func until(on phone: String, identityId: String) -> Int64? {
        heard[phone]?[identityId].flatMap { $0.levels.isEmpty ? nil : $0.until }
    }

    /// The levels the phone last heard for `identityId`; empty when it never heard of it.
    func levels(on phone: String, identityId: String) -> Set<String> {
        heard[phone]?[identityId]?.levels ?? []
    }
}
