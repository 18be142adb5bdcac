import Foundation
import SimKernel
import Testing

@testable import BackendSim
@testable import Simulation

/// Seed 003: a refund turns the entitlement off and emits `purchases.refund.changed`; a refund of an
/// older period leaves the current paid period alone; moves emit `purchases.ownership.transferred`.
@Suite struct RefundEventTests {
    private func renewedWorld() throws -> World {
        let world = try TestSupport.launchedWorld()
        try world.subscribe()
        #expect(world.travelToNextRenewal())
        world.scheduler.runUntilIdle()
        return world
    }

    private func events(_ world: World, _ action: String) throws -> [String] {
        try world.backend.ledger.auditTrail().filter { $0.contains(" \(action) ") }
    }

    private func levels(_ world: World) throws -> [String] {
        let owner = try #require(try world.backend.ledger.allPurchases().first?.ownerId)
        return try world.backend.levels(of: owner)
    }

    @Test func aRefundOfTheCurrentPeriodTakesAccessBackWithItsEvent() throws {
        let world = try renewedWorld()
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        #expect(try levels(world) == [])
        let refunds = try events(world, "purchases.refund.changed")
        #expect(refunds.count == 1)
        #expect(refunds.first?.contains("access taken back (REFUND)") == true)
    }

    @Test func aRefundOfAnOlderPeriodLeavesTheCurrentOnePaid() throws {
        let world = try renewedWorld()
        let first = try #require(world.store.transactions(appleId: world.appleId).first)
        #expect(try world.store.refund(transactionId: first.transactionIdentifier))
        world.scheduler.runUntilIdle()
        #expect(try levels(world) == ["premium"])
        let purchase = try #require(try world.backend.ledger.allPurchases().first)
        #expect(!purchase.revoked)
        #expect(purchase.expires == world.store.transactions(appleId: world.appleId).last?.expiresDate)
        let refunds = try events(world, "purchases.refund.changed")
        #expect(refunds.count == 1)
        #expect(refunds.first?.contains("\(first.transactionIdentifier) refunded, the current period stays") == true)
        #expect(try LedgerCheck.violations(in: world.backend.ledger) == [])
    }

    @Test func aRestoreOnAnotherPhoneEmitsTheTransferEventViaRestore() throws {
        let world = try renewedWorld()
        try world.newDevice(named: "iphone-2")
        world.scheduler.runUntilIdle()
        try world.perform(.openProfile)
        try world.perform(.restore)
        world.scheduler.runUntilIdle()
        let moves = try events(world, "purchases.ownership.transferred")
        #expect(moves.count == 1)
        #expect(moves.first?.hasSuffix("via restore") == true)
    }
}
