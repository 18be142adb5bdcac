import Foundation
import SimKernel
import Testing

@testable import BackendSim

/// A token's claims are written and read by hand: both must be what `JSONEncoder` (sorted keys) writes
/// and `JSONDecoder` reads, or a token issued by an earlier build, or an edited one, would read otherwise.
@Suite struct TokenClaimsTests {
    private static var claims: [TokenClaims] {
        var generator = SeededGenerator(seed: 41)
        let odd = ["", "a/b", "quote\"", "back\\slash", "tab\t", "\u{1}", "é", "🙂", "com.example.app"]
        return (0..<200).map { index in
            let sub = index < odd.count ? odd[index] : "id-\(generator.next() % 100_000)"
            let aud = index % 3 == 0 ? odd[index % odd.count] : "com.paywallsim.demo"
            return TokenClaims(
                sub: sub, kind: index % 2 == 0 ? .account : .anonymous, aud: aud,
                exp: Int64(bitPattern: generator.next()) / Int64(1 + index))
        }
    }

    @Test func theWrittenClaimsAreJSONEncoders() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for claims in Self.claims {
            #expect(claims.json == Array(try encoder.encode(claims)))
        }
    }

    @Test func theReadClaimsAreJSONDecoders() {
        let edited = [
            #"{"aud":"a","exp":1,"kind":"account","sub":"s","extra":true}"#,
            #"{ "sub" : "s", "kind":"anonymous","aud":"a","exp":-5 }"#,
            #"{"aud":"a","exp":1.5,"kind":"account","sub":"s"}"#, #"{"aud":"a","exp":"1","kind":"account","sub":"s"}"#,
            #"{"aud":"a","exp":1,"kind":"admin","sub":"s"}"#, #"{"aud":"a","exp":1,"kind":"account"}"#,
            #"{"aud":"\u0061","exp":1,"kind":"account","sub":"s"}"#,
            #"{"aud":"a","aud":"b","exp":1,"kind":"account","sub":"s"}"#,
            #"[1]"#, "", "{",
        ].map { Array($0.utf8) }
        for bytes in Self.claims.map(\.json) + edited {
            #expect(TokenClaims(json: bytes) == (try? JSONDecoder().decode(TokenClaims.self, from: Data(bytes))))
        }
    }

    @Test func aUUIDIsTheFirstSixteenBytesInHexWithDashes() {
        var generator = SeededGenerator(seed: 5)
        for length in [16, 32] {
            let bytes = generator.bytes(length)
            let hex = bytes.prefix(16).map { String(format: "%02x", $0) }.joined()
            let characters = Array(hex)
            let expected = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
                .joined(separator: "-")
            #expect(Backend.uuid(bytes) == expected)
            #expect(Backend.uuid(Array(bytes[...])) == UUID(uuid: uuidTuple(bytes)).uuidString.lowercased())
        }
    }

    private func uuidTuple(_ b: [UInt8]) -> uuid_t {
        (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }
}
