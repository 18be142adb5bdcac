import SimKernel
import Simulation

/// The world's settings the control pane shows, read at one instant so the pane never touches the world.
public struct ControlReadings: Equatable, Sendable {
    public var askToBuy = false
    public var nextPurchase = NextPurchase.ok
    public var canMakePayments = true
    public var billingIssue = false
    /// Whether a failed renewal gets Apple's grace period now, and whether the file or config gives one.
    public var billingGrace = true
    public var defaultGrace = true
    public var latency = LatencyProfile.typical
    public var finishesBeforeServerCheck = true
    public var storefront = "USA"
    public var storefronts = ["USA"]
    public var locale = "en_US"
    public var locales = ["en_US"]
    /// The name "New device" gives the next phone.
    public var freeDeviceName = "iphone-2"
    /// The phone on screen, and every phone of the world ("Phone" goes to the next).
    public var phone = "iphone"
    public var phones = ["iphone"]
    /// `ControlBoard.familyMember` is in the reader's family.
    public var familyMember = false
    public var familySharing = true

    public init() {}

    public init(world: World) {
        askToBuy = world.askToBuy
        nextPurchase = world.nextPurchase
        canMakePayments = world.canMakePayments
        billingIssue = world.hasBillingIssue
        billingGrace = world.billingGracePeriod
        defaultGrace = world.defaultGracePeriod
        latency = world.latency
        finishesBeforeServerCheck = world.finishPolicy == .beforeServerCheck
        storefront = world.storefront
        storefronts = world.storefronts
        locale = world.locale
        locales = world.locales
        freeDeviceName = world.freeDeviceName
        phone = world.deviceName
        phones = world.phones
        familyMember = world.familyMembers.contains(ControlBoard.familyMember)
        familySharing = world.familySharing
    }
}
