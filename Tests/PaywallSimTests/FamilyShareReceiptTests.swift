import Testing

@testable import Simulation
@testable import StoreSim

/// Session 35: Apple updates a family member's receipt to list the family's shares ("When family members benefit from a
/// shared subscription, App Store updates their receipt to include the family-shared purchase"), and updates it again
/// before telling the app a share was taken away; the store did so only when the phone asked for a receipt.
@Suite struct FamilyShareReceiptTests {
    private let member = "kid@icloud.test"

    /// The purchaser's yearly plan, then the member's phone: its receipt lists the member's own FAMILY_SHARED
    /// transaction, never the purchaser's, with no refresh or restore asked.
    @Test func aMembersReceiptListsTheShareAsItBegins() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        try world.subscribe(to: "premium-yearly")
        let purchase = try #require(world.store.transactions(appleId: world.appleId).first)
        try world.addFamilyMember(member)
        world.scheduler.runUntilIdle()
        #expect(!world.timeline.entries.contains { $0.text.contains("receipt refresh request") })
        let receipt = try #require(world.device.queue.heldReceipt)
        let listed = try #require(ReceiptCodec.open(receipt, with: world.store.verifyingKey)).inApp
        let share = try #require(world.store.familySharedTransactions(appleId: member).first)
        #expect(listed.map(\.originalTransactionId) == [share.originalTransactionIdentifier])
        #expect(listed.first?.inAppOwnershipType == FamilySharing.familyShared)
        #expect(!listed.contains { $0.originalTransactionId == purchase.originalTransactionIdentifier })
    }

    /// Sharing stops: the member's receipt is issued again, the share's cancellation on it.
    @Test func aMembersReceiptSaysTheShareWasTakenAway() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        try world.subscribe(to: "premium-yearly")
        try world.addFamilyMember(member)
        world.scheduler.runUntilIdle()
        world.familySharing = false
        world.scheduler.runUntilIdle()
        let receipt = try #require(world.device.queue.heldReceipt)
        let listed = try #require(ReceiptCodec.open(receipt, with: world.store.verifyingKey)).inApp
        #expect(listed.count == 1)
        #expect(listed.first?.cancellationDate != nil)
    }
}
