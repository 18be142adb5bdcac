import Foundation
import Testing

@testable import Subscriptions

/// The app reads the backend's answers by `QuickJSON` when they are plain: what it reads must be what
/// `JSONDecoder` reads, for the answers the backend writes and for bodies it never would.
@Suite struct QuickBodiesTests {
    private static let identity = #""identity":{"id":"acct-1","kind":"account","email":"r@example.test","token":"t"}"#

    private static let bodies = [
        "{\"granting\":[\"100\"],\(identity),\"levels\":[\"premium\"],\"restored\":[\"100\"],\"ownedElsewhere\":[]}",
        "{\(identity),\"levels\":[],\"restored\":null,\"error\":\"restore_limit\"}",
        "{\(identity),\"levels\":[\"premium\",\"kids\"],\"refreshToken\":\"r-1\"}",
        "{\(identity),\"levels\":[\"premium\"],\"subscriptions\":[{\"productId\":\"p\",\"expires\":1700000000000,"
            + "\"active\":true,\"autoRenew\":false,\"billingIssue\":false},{\"productId\":\"q\",\"expires\":null,"
            + "\"active\":false,\"autoRenew\":true,\"billingIssue\":true}]}",
        "{\(identity),\"levels\":[\"premium\"],\"subscriptions\":[{\"productId\":\"p\",\"active\":1,"
            + "\"autoRenew\":false,\"billingIssue\":false}]}",
        "{\(identity),\"levels\":[\"premium\"],\"subscriptions\":[{\"productId\":\"p\",\"expires\":1.5,"
            + "\"active\":true,\"autoRenew\":false,\"billingIssue\":false}]}",
        "{\(identity),\"levels\":[\"premium\"],\"subscriptions\":[\"p\"]}",
        "{\(identity),\"levels\":\"premium\",\"refreshToken\":\"r\"}",
        "{\(identity),\"levels\":[\"pre\\\"mium\"],\"refreshToken\":\"r\"}",
        "{\"identity\":{\"id\":\"a\",\"kind\":\"anonymous\",\"appAccountToken\":\"é\"},\"levels\":[]}",
        "{\"identity\":{\"id\":\"a\",\"kind\":\"anonymous\",\"email\":null},\"levels\":[],\"restored\":[1]}",
        "{\"identity\":{\"id\":\"a\"},\"levels\":[]}",
        "{\"identity\":null,\"levels\":[]}",
        "{\"levels\":[]}",
        #"{"error":"account_required"}"#,
        #"{"error":null}"#,
        #"{"error":"token_expired","detail":{"at":[1,2,{"x":false}]}}"#,
        "{\(identity),\"levels\":[],\"levels\":[]}",
        "",
        "[]",
        "{\(identity),\"levels\":[\"premium\"],\"subscriptions\":[{\"active\":true,\"autoRenew\":true,"
            + "\"billingIssue\":false,\"expires\":1700000000000,\"originalTransactionId\":\"100\",\"productId\":\"p\"}]}",
        "{\(identity),\"levels\":[],\"subscriptions\":[{\"active\":true,\"autoRenew\":true,"
            + "\"billingIssue\":false,\"originalTransactionId\":100,\"productId\":\"p\"}]}",
        "{\(identity),\"levels\":[],\"subscriptions\":[{\"active\":true,\"autoRenew\":true,"
            + "\"billingIssue\":false,\"originalTransactionId\":null,\"productId\":\"p\"}]}",
        // A sign-in's answer as the server writes it now, listing the account's subscriptions; then broken ones.
        "{\(identity),\"levels\":[\"premium\"],\"refreshToken\":\"r-1\",\"subscriptions\":[{\"active\":true,"
            + "\"autoRenew\":true,\"billingIssue\":false,\"expires\":1700000000000,\"originalTransactionId\":\"100\","
            + "\"productId\":\"p\"}]}",
        "{\(identity),\"levels\":[],\"refreshToken\":\"r-1\",\"subscriptions\":null}",
        "{\(identity),\"levels\":[],\"refreshToken\":\"r-1\",\"subscriptions\":[{\"productId\":\"p\"}]}",
        "{\(identity),\"levels\":[],\"refreshToken\":\"r-1\",\"subscriptions\":{}}",
    ]

    /// Whether `body` reads as `JSONDecoder` reads it (compared by every field, as printed; a refusal as
    /// nil), and whether it was read quickly.
    private func read<T: Decodable>(_ type: T.Type, _ body: String) -> (same: Bool, quick: Bool) {
        let bytes = Array(body.utf8)
        let expected = (try? JSONDecoder().decode(type, from: Data(bytes))).map { String(describing: $0) }
        let quick = BackendClient.quickly(type, bytes).map { (try? $0.get()).map { String(describing: $0) } }
        let read = (try? BackendClient.decode(type, bytes).get()).map { String(describing: $0) }
        return (read == expected && (quick == nil || quick == expected), quick != nil)
    }

    @Test func eachBodyReadsAsJSONDecoderReadsIt() {
        for body in Self.bodies {
            #expect(read(AccessBody.self, body).same, "\(body)")
            #expect(read(SessionBody.self, body).same, "\(body)")
            #expect(read(MeBody.self, body).same, "\(body)")
            #expect(read(ErrorBody.self, body).same, "\(body)")
        }
        // The backend's own answers are plain: they take the quick way.
        #expect(read(AccessBody.self, Self.bodies[0]).quick)
        #expect(read(AccessBody.self, Self.bodies[1]).quick)
        #expect(read(SessionBody.self, Self.bodies[2]).quick)
        #expect(read(MeBody.self, Self.bodies[3]).quick)
        #expect(read(ErrorBody.self, Self.bodies[14]).quick)
        // The server's `me` as it writes it now, naming each subscription's original transaction.
        #expect(read(MeBody.self, Self.bodies[20]).quick)
        let me = try? BackendClient.decode(MeBody.self, Array(Self.bodies[20].utf8)).get()
        #expect(me?.subscriptions.map(\.originalTransactionId) == ["100"])
        #expect(read(SessionBody.self, Self.bodies[23]).quick)
        let session = try? BackendClient.decode(SessionBody.self, Array(Self.bodies[23].utf8)).get()
        #expect(session?.subscriptions?.map(\.productId) == ["p"])
        #expect(read(SessionBody.self, Self.bodies[24]).quick)
        #expect(read(SessionBody.self, Self.bodies[2]).quick)
    }

    /// The answers before a restore and with an article: the backend's own are plain, others `JSONDecoder`'s.
    @Test func inspectAndContentAnswersReadAsJSONDecoderReadsThem() {
        let purchase =
            #"{"active":true,"originalTransactionId":"100","owner":"account","productId":"p","restorable":false,"#
            + #""refusal":"owned_by_another_account"}"#
        let inspections = [
            "{\"purchases\":[\(purchase)]}", #"{"purchases":[]}"#, #"{"purchases":null}"#, #"{"purchases":[1]}"#,
            "{\"purchases\":[\(purchase.replacingOccurrences(of: "\"active\":true", with: "\"active\":1"))]}",
            "{\"purchases\":[\(purchase.replacingOccurrences(of: ",\"refusal\":\"owned_by_another_account\"", with: ""))]}",
            "{\"purchases\":[\(purchase.replacingOccurrences(of: "\"owner\":\"account\",", with: ""))]}",
            #"{"purchases":[{"productId":"caf\u00e9"}]}"#,
        ]
        for body in inspections { #expect(read(InspectBody.self, body).same, "\(body)") }
        #expect(read(InspectBody.self, inspections[0]).quick)
        let answer = try? BackendClient.decode(InspectBody.self, Array(inspections[0].utf8)).get()
        #expect(answer?.purchases.map(\.refusal) == ["owned_by_another_account"])
        // The group the server names, read plainly as the decoder reads it: the app judges a restore here by it where
        // the App Store's answers leave the plan out (long fuzz seed 1940).
        let named = "{\"purchases\":[\(purchase.dropLast()),\"subscriptionGroupIdentifier\":\"g1\"}]}"
        #expect(read(InspectBody.self, named).quick)
        #expect(read(InspectBody.self, named).same)
        let grouped = try? BackendClient.decode(InspectBody.self, Array(named.utf8)).get()
        #expect(grouped?.purchases.map(\.subscriptionGroupIdentifier) == ["g1"])
        let articles = [
            #"{"body":"The full story."}"#, #"{"body":"line\none"}"#, #"{"body":"café"}"#, #"{"body":null}"#,
            #"{"body":1}"#, #"{"title":"t"}"#,
        ]
        for body in articles { #expect(read(ContentBody.self, body).same, "\(body)") }
        #expect(read(ContentBody.self, articles[0]).quick)
        #expect(!read(ContentBody.self, articles[1]).quick)
    }
}
