/// How a restore ended, in terms of what the reader sees.
public enum RestoreOutcome: Equatable, Sendable {
    case restored
    /// What came back is a family member's purchase, shared with this Apple ID (Apple's FAMILY_SHARED), as the profile
    /// says it: "Your subscription is back" told the family organiser that a member's plan was theirs (session 33).
    /// `alsoOwn`: the Apple ID's own subscription came back with it.
    case sharedByFamily(alsoOwn: Bool)
    /// Levels were already active: nothing to do.
    case alreadySubscribed
    case nothingToRestore
    /// The Apple ID bought before, but what it bought has ended (expired, refunded, revoked).
    case nothingValidToRestore
    /// All the Apple ID held was a family member's purchase shared with it, and the family no longer shares it (sharing
    /// off, the member gone, the purchase refunded or ended): not the reader's own subscription ending.
    case familyShareEnded
    /// What the Apple ID bought gives no access now because Apple could not charge it and is still retrying: the
    /// reader can update the payment method, and it comes back once Apple charges it.
    case paymentRetrying
    /// Another account owns it; a guest cannot take it (log in as the owner).
    case linkedToAnotherAccount
    /// Another account owns it; the signed-in reader is asked before it moves.
    case confirmMoveFromAnotherAccount
    case notThisDevice
    case limitReached
    /// The app's policy keeps it with its owner, or moves it only when the owner's subscription ended.
    case keptWithOwner
    /// Unanswered, and the server could not be asked what the reader holds: the restore may have been made.
    case notConfirmed
    /// Not made for who is here now (another identity signed in or out while it ran), who holds levels: nothing to tell.
    case overtaken
    /// Something came back (the phone holds levels now) and the server refused the rest for `refusal`'s code: the
    /// reader hears both (seed 001: restore outcomes become messages the reader sees; session 30). `back`: whose is
    /// what came back, a family member's share told as the family's (session 34).
    case partlyRestored(refusal: String, back: WhoPays = .own)
    case failed(message: String)
    /// The reader cancelled the Apple ID sign-in the receipt's refresh asked for (`SKErrorPaymentCancelled`): the
    /// restore ends as a cancelled payment does, with no error shown, and nothing changed.
    case cancelled

    /// The outcomes where nothing came back, each worth asking again with a fresher receipt.
    static let nothingBack: [RestoreOutcome] = [
        .nothingToRestore, .nothingValidToRestore, .familyShareEnded, .paymentRetrying,
    ]

    /// What the Apple ID held has ended (its own, or a share the family took back).
    var endedWithNothingValid: Bool { self == .nothingValidToRestore || self == .familyShareEnded }

    /// The outcome for a refusal code of the backend contract (docs/BACKEND-API.md).
    public static func refusal(_ code: String) -> RestoreOutcome {
        switch code {
        case "nothing_to_restore", "nothing_to_validate": .nothingToRestore
        case "nothing_valid_to_restore": .nothingValidToRestore
        case "family_share_ended": .familyShareEnded
        case "payment_retrying": .paymentRetrying
        case "restore_account_owned", "restore_needs_confirmation": .linkedToAnotherAccount
        case "restore_not_this_device": .notThisDevice
        case "restore_limit": .limitReached
        case "restore_kept_with_owner", "restore_owner_active": .keptWithOwner
        // Refused as no receipt of Apple's, a fresh one too (a jailbroken phone's tweak alters every read): "try again
        // later" said nothing of why, nor that another device's receipt brings it (session 31).
        case "receipt_invalid":
            .failed(
                message: "The App Store receipt on this phone could not be verified, so nothing was restored. "
                    + "Try again later, or use Restore purchase on another device with your Apple ID.")
        default: .failed(message: "Your purchases could not be restored. Please try again later.")
        }
    }

    /// The words the reader sees.
    public var message: String {
        switch self {
        case .restored: "Your subscription is back."
        case .sharedByFamily(alsoOwn: false):
            "Your family shares a subscription with you, and it is here now. The family member who bought it pays for "
                + "it."
        case .sharedByFamily(alsoOwn: true):
            "Your subscription is back, with one your family shares with you. The family member who bought that one "
                + "pays for it."
        case .alreadySubscribed: "You are already subscribed."
        case .nothingToRestore: "There is no purchase to restore on this Apple ID."
        case .nothingValidToRestore: "Your subscription on this Apple ID has ended. There is nothing valid to restore."
        case .familyShareEnded:
            "Your family no longer shares a subscription with this Apple ID. There is nothing valid to restore."
        case .paymentRetrying:
            "Apple could not charge for this subscription and is still trying. Whoever pays for it can update the "
                + "payment method in Settings; once Apple charges it, Restore purchase brings it here."
        case .linkedToAnotherAccount: "This subscription belongs to another account. Log in to that account to use it."
        case .confirmMoveFromAnotherAccount: "This subscription is linked to another account. Move it to this account?"
        case .notThisDevice: "This purchase can only be restored on the device it was bought on."
        case .limitReached: "This subscription has moved too often recently. Try again later."
        case .keptWithOwner:
            "This subscription stays where it was bought: with its account, or on the phone that bought it."
        case .notConfirmed: "Your restore could not be confirmed. Your profile shows what you hold now."
        case .overtaken: "Your restore was tapped before you signed in or out. Your profile shows what you hold now."
        case .partlyRestored(let refusal, let back):
            Self.partBack(back) + " The rest did not come: "
                + Self.refusal(refusal).message.prefix(1).lowercased() + Self.refusal(refusal).message.dropFirst()
        case .failed(let message): message
        case .cancelled: ""
        }
    }

    /// The part of a partial restore that came back, said of who pays for it.
    private static func partBack(_ back: WhoPays) -> String {
        switch back {
        case .own: "Part of what this Apple ID pays for is back here."
        case .family:
            "A subscription your family shares with you is here now; the family member who bought it pays for it."
        case .ownAndFamily:
            "Part of what this Apple ID pays for is back here, with a subscription your family shares with you; the "
                + "family member who bought that one pays for it."
        }
    }
}
