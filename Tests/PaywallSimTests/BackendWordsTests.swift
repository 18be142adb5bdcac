import Foundation
import Testing

@testable import Simulation

/// The invariant monitor reads every backend answer for the identity and levels it names: the quick
/// reader must get what `JSONDecoder` gets, for plain answers and every other kind of body.
@Suite struct BackendWordsTests {
    private struct Answer: Decodable, Equatable {
        struct Identity: Decodable, Equatable { let id: String }
        let identity: Identity
        let levels: [String]
    }

    private static let bodies = [
        #"{"identity":{"id":"anon-1","kind":"anonymous"},"levels":["premium"],"subscriptions":[]}"#,
        #"{"levels":[],"identity":{"id":"acct-2","email":"r@example.test"},"restored":[{"p":1,"q":[true,null]}]}"#,
        #" { "identity" : { "id" : "a" } , "levels" : [ "x" , "y" ] } "#,
        #"{"identity":{"id":"esc\"aped"},"levels":["premium"]}"#,
        #"{"identity":{"id":"é"},"levels":["premium"]}"#,
        #"{"identity":{"id":"a"},"levels":["premium"],"price":4.99}"#,
        #"{"identity":{"id":"a"},"levels":["premium"],"levels":[]}"#,
        #"{"identity":{"id":"a"}}"#,
        #"{"identity":{"id":"a"},"levels":null}"#,
        #"{"identity":{"id":"a"},"levels":[1]}"#,
        #"{"identity":{"id":null},"levels":[]}"#,
        #"{"identity":"a","levels":[]}"#,
        #"{"identity":{},"levels":[]}"#,
        #"{"error":"account_required"}"#,
        #"{"identity":{"id":"a"},"levels":["x",]}"#,
        #"{"identity":{"id":"a"},"levels":["x"]"#,
        #"[{"identity":{"id":"a"},"levels":[]}]"#,
        "",
    ]

    @Test func theQuickReaderGetsWhatJSONDecoderGets() {
        for (index, body) in Self.bodies.enumerated() {
            let expected = (try? JSONDecoder().decode(Answer.self, from: Data(body.utf8))).map {
                [$0.identity.id] + $0.levels
            }
            let read = BackendWords.identityAndLevels(Array(body.utf8)).map { [$0.0] + $0.1 }
            #expect(read == expected, "\(body)")
            // The first three are plain answers naming an identity.
            if index < 3 { #expect(read != nil, "\(body)") }
        }
    }
}
