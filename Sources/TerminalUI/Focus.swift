/// Which pane takes the movement keys; Tab moves it.
public enum Focus: Equatable, Sendable, CaseIterable {
    case phone
    case timeline
    /// The checklist of a guided walk or a live replay; only there when one runs.
    case checklist
    case controls

    /// The next pane in Tab order: phone → timeline → controls → phone, with the checklist after the
    /// timeline when there is one.
    public var next: Focus { next(checklist: false) }

    public func next(checklist: Bool) -> Focus {
        let all = Focus.allCases.filter { checklist || $0 != .checklist }
        return all[((all.firstIndex(of: self) ?? -1) + 1) % all.count]
    }
}
