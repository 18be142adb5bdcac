import Foundation
import Signing
import SimKernel
import Testing

@testable import BackendSim

/// `TokenAuthority` keeps the claims of each token it found authentic (`AuthenticTokens`): a token checked before
/// is judged again at every check for what may change (its expiry, passing with time; the authority's audience),
/// and a token that differs from a kept one in any byte is checked whole.
@Suite struct AuthenticTokensTests {
    let authority = TokenAuthority(secret: Keyring.derived(seed: 1).tokenSecret, audience: "com.dailynews.app")
    let identity = IdentityRecord(id: "anon-000001", kind: .anonymous)

    @Test func aKeptTokenStillExpires() throws {
        let token = authority.issue(for: identity, now: .worldStart, lifetime: .days(1))
        #expect(try authority.verify(token, now: .worldStart).sub == "anon-000001")
        #expect(try authority.verify(token, now: .worldStart).sub == "anon-000001")
        let later = SimInstant.worldStart + .days(2)
        #expect(throws: TokenAuthority.Refusal.expired) { try authority.verify(token, now: later) }
        #expect(try authority.verify(token, now: later, acceptingExpired: true).sub == "anon-000001")
    }

    @Test func aTokenAlteredAfterItsOriginalWasKeptIsRefused() throws {
        let token = authority.issue(for: identity, now: .worldStart, lifetime: .days(1))
        _ = try authority.verify(token, now: .worldStart)
        var bytes = Array(token.utf8)
        // The signature's last character changed: the same claims, a MAC that does not hold.
        bytes[bytes.count - 1] = bytes[bytes.count - 1] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let altered = String(decoding: bytes, as: UTF8.self)
        #expect(throws: TokenAuthority.Refusal.badSignature) { try authority.verify(altered, now: .worldStart) }
        #expect(throws: TokenAuthority.Refusal.badSignature) { try authority.verify(altered, now: .worldStart) }
    }

    @Test func aKeptTokenIsStillOtherAppsToAnotherAudience() throws {
        let other = TokenAuthority(secret: Keyring.derived(seed: 1).tokenSecret, audience: "com.other.app")
        let token = other.issue(for: identity, now: .worldStart, lifetime: .days(1))
        _ = try other.verify(token, now: .worldStart)
        #expect(throws: TokenAuthority.Refusal.otherApp) { try authority.verify(token, now: .worldStart) }
    }

    @Test func theKeptTokensAreBounded() throws {
        for number in 0..<(AuthenticTokens.capacity * 2 + 3) {
            let token = authority.issue(
                for: IdentityRecord(id: "anon-\(number)", kind: .anonymous), now: .worldStart, lifetime: .days(1))
            #expect(try authority.verify(token, now: .worldStart).sub == "anon-\(number)")
        }
        #expect(authority.keptTokens <= AuthenticTokens.capacity)
    }
}
