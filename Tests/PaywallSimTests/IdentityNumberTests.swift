import Signing
import SimKernel
import Testing

@testable import BackendSim

/// A new identity's id is numbered by its insert (one past the largest rowid): the id the ledger hands
/// back is the row's, anonymous and account identities count on together, on disk and in memory.
@Suite struct IdentityNumberTests {
    @Test func idsHandedBackAreTheRowsAndCountOn() throws {
        let ledger = try BackendLedger(path: nil)
        var ids: [String] = []
        for index in 0..<12 {
            if index % 3 == 2 {
                let hash = PasswordHash(salt: [1, 2, 3], iterations: 1, hash: [4, 5, 6])
                ids.append(
                    try ledger.createAccount(email: "r\(index)@example.test", password: hash, at: .worldStart).id)
            } else {
                ids.append(try ledger.createAnonymousIdentity(at: .worldStart, deviceId: "phone-\(index)").id)
            }
        }
        let expected = (1...12).map { number in
            (number % 3 == 0 ? "acct-" : "anon-") + String(repeating: "0", count: 6 - String(number).count)
                + String(number)
        }
        #expect(ids == expected)
        for (index, id) in ids.enumerated() {
            #expect(try ledger.identity(id)?.id == id)
            if index % 3 != 2 { #expect(try ledger.deviceOfAnonymousIdentity(id) == "phone-\(index)") }
        }
    }
}
