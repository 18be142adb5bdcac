extension AppState {
    /// The index in `screen.rows` of the row that does `action` here, or nil: the one place a reader's
    /// action meets a screen's layout, so reordering a screen's rows breaks nothing outside AppFlow.
    /// What is typed first (credentials, the gate's answer) is not compared: the button is the same.
    public func row(doing action: ReaderAction) -> Int? {
        row(doing: action, on: ScreenBuilder.build(self).screen)
    }

    /// The same, on `screen`, this state's screen already built (a phone keeps it until the state changes).
    public func row(doing action: ReaderAction, on screen: ScreenModel) -> Int? {
        screen.rows.firstIndex { row in
            guard let choice = row.choice, let done = ReaderAction.of(choice, in: self) else { return false }
            return done.sameButton(as: action)
        }
    }
}

extension ReaderAction {
    /// Whether two actions are pressed on the same row, whatever was typed into the fields before it.
    fileprivate func sameButton(as other: ReaderAction) -> Bool {
        switch (self, other) {
        case (.logIn, .logIn), (.signUp, .signUp), (.answerGate, .answerGate): true
        // Unnamed: the first subscription's.
        case (.setAutoRenew(let enabled, _), .setAutoRenew(let asked, nil)): enabled == asked
        default: self == other
        }
    }
}
