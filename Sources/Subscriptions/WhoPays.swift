/// Who pays for what came to the reader (a restore's part, a move to the account): the Apple ID itself, a family member
/// whose purchase Apple shares with it (FAMILY_SHARED), or both. "Your subscription is now on your account" told a family
/// member that the plan the organiser pays for was theirs (session 34), as "Your subscription is back" did (session 33).
public enum WhoPays: Equatable, Sendable {
    case own
    case family
    case ownAndFamily

    /// Of what `access` says gives the reader access among `brought` (or, with none of those giving access, of all
    /// that does): a family member's purchase is said to be the family's, as the profile says it.
    static func of(_ access: AccessAnswer, brought: [String]) -> WhoPays {
        let granting = access.granting ?? []
        let new = granting.filter(brought.contains)
        let back = new.isEmpty ? granting : new
        let shared = Set(access.sharedByFamily)
        return of(shared: back.filter(shared.contains).count, of: back.count)
    }

    /// `shared` of the `count` purchases that give access are a family member's.
    static func of(shared: Int, of count: Int) -> WhoPays {
        guard shared > 0 else { return .own }
        return shared < count ? .ownAndFamily : .family
    }
}
