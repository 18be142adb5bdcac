/// What the reader does on the phone, independent of which key did it.
public enum ReaderInput: Equatable, Sendable {
    case up
    case down
    /// Enter: open, choose, press.
    case select
    /// Esc: go back, close.
    case back
    /// A printable character typed into a text field.
    case character(Character)
    case deleteBackward
}

extension ReaderInput {
    /// Moving the highlight and editing a field's text change which row is highlighted and what a field
    /// holds, never which rows there are or what each does: the screen's choices stay those it had.
    public var keepsChoices: Bool {
        switch self {
        case .up, .down, .character, .deleteBackward: true
        case .select, .back: false
        }
    }
}
