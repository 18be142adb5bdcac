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
