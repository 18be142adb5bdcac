import StoreSim

/// Family Sharing from the outside: the world's reader is the family's purchaser; a member has their own
/// Apple ID and their own phone, which gets a family-shareable subscription as a FAMILY_SHARED purchase.
extension World {
    /// `family add APPLE_ID`: the Apple ID joins the purchaser's family, and a phone signed into it comes
    /// on screen (new, or the member's phone from before, restarted).
    public func addFamilyMember(_ member: String) throws(WorldSetupError) {
        guard member != options.appleId else {
            throw WorldSetupError(description: "\(member) is the purchaser's own Apple ID")
        }
        guard !store.familyMembers(of: options.appleId).contains(member) else {
            throw WorldSetupError(description: "\(member) is already in the family")
        }
        guard
            attempt("add \(member) to the family", { try store.addFamilyMember(member, purchaser: options.appleId) })
                != nil
        else { throw WorldSetupError(description: "the App Store could not add \(member) to the family") }
        let name = Self.phoneName(of: member)
        if storages[name] == nil {
            try addStorage(named: name)
            phoneAppleIds[name] = member
            timeline.log(.control, "family member \(member) on new device \(name)")
        } else {
            timeline.log(.control, "family member \(member) back on \(name)")
        }
        switchDevice(to: name)
    }

    /// `family remove APPLE_ID`: the member leaves the family; Apple revokes what was shared with them.
    public func removeFamilyMember(_ member: String) -> Bool {
        guard store.familyMembers(of: options.appleId).contains(member) else { return false }
        timeline.log(.control, "family member \(member) removed")
        return attempt("remove \(member) from the family") { try store.removeFamilyMember(member) } != nil
    }

    /// `family sharing on|off`: the purchaser shares their subscriptions with the family, or stops.
    public var familySharing: Bool {
        get { store.isFamilySharing(options.appleId) }
        set {
            timeline.log(.control, "family sharing \(newValue ? "on" : "off")")
            _ = attempt("turn family sharing \(newValue ? "on" : "off")") {
                try store.setFamilySharing(newValue, purchaser: options.appleId)
            }
        }
    }

    /// The world's Apple IDs: the purchaser's, then each family member's who has had a phone.
    public var appleIds: [String] {
        if let appleIdsKept { return appleIdsKept }
        let built = [options.appleId] + Set(phoneAppleIds.values).sorted()
        appleIdsKept = built
        return built
    }

    /// Every transaction charged to one of the world's Apple IDs (a family-shared one is charged to nobody).
    public var chargedTransactions: [TransactionRecord] { store.chargedTransactions(of: appleIds) }

    /// The purchaser's family members, by Apple ID.
    public var familyMembers: [String] { store.familyMembers(of: options.appleId) }

    /// A member's phone is named after their Apple ID: `kid@icloud.test` → `kid-iphone`.
    static func phoneName(of appleId: String) -> String {
        "\(appleId.split(separator: "@").first.map(String.init) ?? appleId)-iphone"
    }
}
