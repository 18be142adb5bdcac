import BackendSim
import Testing
import WhiteLabel

@Suite struct OwnershipRulesTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let situation: OwnershipRules.Situation
        let expected: OwnershipRules.Decision
        var testDescription: String { name }
    }

    static func situation(
        owner: String? = "anon-1", ownerKind: IdentityRecord.Kind? = .anonymous, ownerActive: Bool = true,
        caller: String? = nil, callerKind: IdentityRecord.Kind = .anonymous, sameDevice: Bool = true, moves: Int = 0,
        policy: RestorePolicy = .transfer, confirmed: Bool = false
    ) -> OwnershipRules.Situation {
        OwnershipRules.Situation(
            ownerId: owner, ownerKind: owner == nil ? nil : ownerKind, ownerHasActivePurchase: ownerActive,
            callerId: caller, callerKind: callerKind, receiptIsFromThisDevice: sameDevice, movesInWindow: moves,
            policy: policy, confirmedMoveFromAccount: confirmed)
    }

    static let rows: [Row] = [
        Row(name: "nobody owns it: the caller claims it", situation: situation(owner: nil), expected: .claim),
        Row(name: "the caller owns it already", situation: situation(caller: "anon-1"), expected: .alreadyYours),
        Row(
            name: "a guest restores a guest's purchase on this device", situation: situation(caller: "anon-2"),
            expected: .move),
        Row(
            name: "another device's receipt", situation: situation(caller: "anon-2", sameDevice: false),
            expected: .refuse(.notThisDevice)),
        Row(
            name: "a guest restores an account's purchase", situation: situation(ownerKind: .account, caller: "anon-2"),
            expected: .refuse(.accountOwned)),
        Row(
            name: "an account takes another account's purchase without asking",
            situation: situation(owner: "acct-1", ownerKind: .account, caller: "acct-2", callerKind: .account),
            expected: .refuse(.needsConfirmation)),
        Row(
            name: "an account takes another account's purchase once the reader confirmed",
            situation: situation(
                owner: "acct-1", ownerKind: .account, caller: "acct-2", callerKind: .account, confirmed: true),
            expected: .move),
        Row(
            name: "an account takes a guest's purchase", situation: situation(caller: "acct-1", callerKind: .account),
            expected: .move),
        Row(
            name: "the fourth move in 30 days", situation: situation(caller: "anon-2", moves: 3),
            expected: .refuse(.limit)),
        Row(name: "the third move in 30 days", situation: situation(caller: "anon-2", moves: 2), expected: .move),
        Row(
            name: "the move limit comes before asking to confirm",
            situation: situation(
                owner: "acct-1", ownerKind: .account, caller: "acct-2", callerKind: .account, moves: 3),
            expected: .refuse(.limit)),
        Row(
            name: "policy: keep with the original owner",
            situation: situation(caller: "anon-2", policy: .keepWithOriginalOwner), expected: .refuse(.keptWithOwner)),
        Row(
            name: "policy: only from an inactive owner, who is active",
            situation: situation(caller: "anon-2", policy: .transferIfOwnerInactive),
            expected: .refuse(.ownerActive)),
        Row(
            name: "policy: only from an inactive owner, who is inactive",
            situation: situation(ownerActive: false, caller: "anon-2", policy: .transferIfOwnerInactive),
            expected: .move),
        Row(
            name: "the device check comes before the policy",
            situation: situation(caller: "anon-2", sameDevice: false, policy: .keepWithOriginalOwner),
            expected: .refuse(.notThisDevice)),
    ]

    @Test(arguments: rows)
    func decides(_ row: Row) {
        #expect(OwnershipRules.decide(row.situation) == row.expected)
    }

    @Test func refusalsCarryTheirStatus() {
        #expect(OwnershipRefusal.notThisDevice.status == 403)
        #expect(OwnershipRefusal.accountOwned.status == 403)
        #expect(OwnershipRefusal.limit.status == 409)
    }
}
