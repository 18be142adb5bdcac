import SimKernel
import Subscriptions
import Testing

@testable import BackendSim

/// Restore as reconciliation, on the real store and ledger: who gets a purchase, and who does not.
@Suite struct RestoreTests {
    /// A purchase made on phone-1 without an account, reported by the app: owned by anon-000001.
    private func boughtAnonymously(_ world: LedgerWorld) throws -> (receipt: String, token: String) {
        let receipt = world.buy(on: "phone-1")
        let answer = try #require(world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) })
        let access = try #require(answer.value)
        #expect(access.identityId == "anon-000001")
        return (receipt, try #require(access.token))
    }

    @Test func aNewPhoneOnTheSameAppleIDRestoresWithoutAnAccount() throws {
        let world = try LedgerWorld()
        let first = try boughtAnonymously(world)
        let receipt = world.refreshedReceipt(on: "phone-2")
        let answer = try #require(
            world.await { world.client(on: "phone-2").restore(receipt, confirmMoveFromAccount: false, completion: $0) })
        let restored = try #require(answer.value)
        #expect(restored.access.identityId == "anon-000002")
        #expect(restored.access.levels == [AccessLevel("premium")])
        #expect(restored.refusal == nil)
        // The purchase moved: the first phone's identity no longer holds it.
        let old = world.client(on: "phone-1", credentials: .anonymous(token: first.token))
        #expect(world.await { old.me(completion: $0) }?.value?.0.levels == [])
        #expect(try world.backend.ledger.moves().map(\.via) == [.restore])
    }

    @Test func anotherDevicesReceiptIsRefusedAndNothingIsWritten() throws {
        let world = try LedgerWorld()
        let first = try boughtAnonymously(world)
        let before = world.auditCount
        // phone-2 sends phone-1's receipt.
        let answer = try #require(
            world.await {
                world.client(on: "phone-2").restore(first.receipt, confirmMoveFromAccount: false, completion: $0)
            })
        #expect(answer.failure == .refused(status: 403, code: "restore_not_this_device"))
        #expect(world.auditCount == before)
        #expect(world.owner(of: "2000000000000001") == "anon-000001")
    }

    @Test func aGuestCannotTakeAnAccountsPurchase() throws {
        let world = try LedgerWorld()
        let receipt = world.buy(on: "phone-1")
        let account = try #require(
            world.await {
                world.client(on: "phone-1").signUp(email: "ana@example.com", password: "correct horse", completion: $0)
            }?
            .value?.access)
        let owner = world.client(on: "phone-1", credentials: .account(token: account.token ?? "", refreshToken: ""))
        #expect(
            world.await { owner.validateReceipt(receipt, completion: $0) }?.value?.levels == [AccessLevel("premium")])
        let guestReceipt = world.refreshedReceipt(on: "phone-2")
        let answer = try #require(
            world.await {
                world.client(on: "phone-2").restore(guestReceipt, confirmMoveFromAccount: true, completion: $0)
            })
        #expect(answer.failure == .refused(status: 403, code: "restore_account_owned"))
        #expect(world.owner(of: "2000000000000001") == account.identityId)
    }

    @Test func aPurchaseMovesAtMostThreeTimesInThirtyDays() throws {
        let world = try LedgerWorld()
        _ = try boughtAnonymously(world)
        func restore(on phone: String) -> Result<RestoreAnswer, BackendFailure>? {
            let receipt = world.refreshedReceipt(on: phone)
            let client = world.client(on: phone)
            return world.await { client.restore(receipt, confirmMoveFromAccount: false, completion: $0) }
        }
        #expect(restore(on: "phone-2")?.value?.restored.count == 1)
        #expect(restore(on: "phone-3")?.value?.restored.count == 1)
        #expect(restore(on: "phone-4")?.value?.restored.count == 1)
        let limit = BackendFailure.refused(status: 409, code: "restore_limit")
        #expect(restore(on: "phone-5")?.failure == limit)
        world.scheduler.advance(by: .days(20))
        #expect(restore(on: "phone-6")?.failure == limit)
        world.scheduler.advance(by: .days(11))
        // 31 days after the first move, the oldest move has left the window: one more is allowed.
        #expect(restore(on: "phone-7")?.value?.restored.count == 1)
        #expect(world.owner(of: "2000000000000001") == "anon-000005")
        #expect(try LedgerCheck.violations(in: world.backend.ledger).isEmpty)
    }

    @Test func theKeepWithOwnerPolicyRefusesWithAClearCode() throws {
        let world = try LedgerWorld(policy: .keepWithOriginalOwner)
        _ = try boughtAnonymously(world)
        let receipt = world.refreshedReceipt(on: "phone-2")
        let answer = world.await {
            world.client(on: "phone-2").restore(receipt, confirmMoveFromAccount: false, completion: $0)
        }
        #expect(answer?.failure == .refused(status: 403, code: "restore_kept_with_owner"))
    }

    @Test func inspectSaysWhoseEachPurchaseIs() throws {
        let world = try LedgerWorld()
        _ = try boughtAnonymously(world)
        let receipt = world.refreshedReceipt(on: "phone-2")
        let purchases = try #require(
            world.await { world.client(on: "phone-2").inspectRestore(receipt, completion: $0) }?.value)
        #expect(purchases.count == 1)
        #expect(purchases.first?.owner == "anonymous")
        #expect(purchases.first?.restorable == true)
        #expect(purchases.first?.active == true)
    }

    @Test func aTransferMovesAGuestsPurchasesToTheAccount() throws {
        let world = try LedgerWorld()
        let anonymous = try boughtAnonymously(world)
        let account = try #require(
            world.await {
                world.client(on: "phone-1").signUp(email: "ana@example.com", password: "correct horse", completion: $0)
            }?
            .value?.access)
        let client = world.client(on: "phone-1", credentials: .account(token: account.token ?? "", refreshToken: ""))
        let answer = try #require(
            world.await { client.transfer(anonymousToken: anonymous.token, completion: $0) }?.value)
        #expect(answer.access.levels == [AccessLevel("premium")])
        #expect(answer.restored == ["2000000000000001"])
        #expect(try world.backend.ledger.moves().map(\.via) == [.transfer])
    }

    @Test func aSecondPhoneSendingItsReceiptMovesNothing() throws {
        let world = try LedgerWorld()
        _ = try boughtAnonymously(world)
        let receipt = world.refreshedReceipt(on: "phone-2")
        // phone-2 reports the receipt as after a purchase (not a restore): nothing moves, nobody new is made.
        let answer = world.await { world.client(on: "phone-2").validateReceipt(receipt, completion: $0) }
        #expect(answer?.failure == .refused(status: 409, code: "purchase_owned_elsewhere"))
        #expect(world.owner(of: "2000000000000001") == "anon-000001")
        #expect(try world.backend.ledger.moves().isEmpty)
    }

    @Test func restoringWithNothingInTheReceiptSaysSo() throws {
        let world = try LedgerWorld()
        let receipt = world.refreshedReceipt(on: "phone-1")
        let answer = world.await {
            world.client(on: "phone-1").restore(receipt, confirmMoveFromAccount: false, completion: $0)
        }
        #expect(answer?.failure == .refused(status: 404, code: "nothing_to_restore"))
    }
}
