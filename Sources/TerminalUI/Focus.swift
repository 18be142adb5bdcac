/// Which pane takes the movement keys; Tab moves it.
public enum Focus: Equatable, Sendable, CaseIterable {
    case phone
    case timeline
    case controls

    /// The next pane in Tab order: phone → timeline → controls → phone.
    public var next: Focus {
        let all = Focus.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
