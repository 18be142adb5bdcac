import AppFlow
import WhiteLabel

/// A whole screen as a grid of cells, drawn in memory first so tests read it as text
/// and the painter copies it to ncurses in one pass.
public struct Frame: Equatable, Sendable {
    public let size: TerminalSize
    public private(set) var cells: [Cell]

    public init(size: TerminalSize) {
        self.size = size
        cells = Array(repeating: .blank, count: max(0, size.columns) * max(0, size.rows))
    }

    public subscript(x x: Int, y y: Int) -> Cell {
        get { cells[y * size.columns + x] }
        set { cells[y * size.columns + x] = newValue }
    }

    private func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size.columns && y < size.rows
    }

    /// Writes `text` from (`x`, `y`), clipped at `limit` (exclusive column) and the frame's edge.
    /// Returns the column after the last character written.
    @discardableResult
    public mutating func write(
        _ text: String, x: Int, y: Int, role: Theme.Role, style: CellStyle = [], limit: Int? = nil
    ) -> Int {
        guard y >= 0 && y < size.rows else { return x }
        // A joined emoji sequence is drawn as its parts (`DisplayWidth.isJoined`); other text as it is, unsplit.
        guard DisplayWidth.hasJoined(text) else {
            return write(characters: text, x: x, y: y, role: role, style: style, limit: limit)
        }
        return write(
            characters: text.lazy.flatMap(DisplayWidth.joinedParts), x: x, y: y, role: role, style: style, limit: limit)
    }

    private mutating func write(
        characters: some Sequence<Character>, x: Int, y: Int, role: Theme.Role, style: CellStyle, limit: Int?
    ) -> Int {
        let end = min(limit ?? size.columns, size.columns)
        var column = x
        for original in characters {
            // An emoji made wide by U+FE0F (🗞️) is one column to ncurses and two to most terminals: drawn
            // without the selector it is one column to both, so the border after it stays in place.
            let character = Self.withoutPresentationSelector(original)
            let width = ColumnWidth.of(character)
            if width == 0 { continue }
            if column + width > end {
                // A wide character that does not fit leaves a blank rather than half a glyph.
                if column < end && column >= 0 { put(Cell(" ", role: role, style: style), x: column, y: y) }
                column = end
                break
            }
            if column >= 0 {
                put(Cell(String(character), role: role, style: style), x: column, y: y)
                if width == 2 { put(Cell("", role: role, style: style), x: column + 1, y: y) }
            }
            column += width
        }
        return column
    }

    private static func withoutPresentationSelector(_ character: Character) -> Character {
        guard character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F })
        else { return character }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: character.unicodeScalars.filter { $0.value != 0xFE0F })
        return String(scalars).first ?? character
    }

    /// Puts one cell, blanking the other half of any wide character it overwrites.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard contains(x: x, y: y) else { return }
        if self[x: x, y: y].isContinuation && !cell.isContinuation && x > 0 {
            self[x: x - 1, y: y].text = " "
        }
        if !self[x: x, y: y].isContinuation && x + 1 < size.columns && self[x: x + 1, y: y].isContinuation
            && !cell.isContinuation
        {
            self[x: x + 1, y: y].text = " "
        }
        self[x: x, y: y] = cell
    }

    /// Fills `rect` with blanks in `role`.
    public mutating func fill(_ rect: Rect, role: Theme.Role = .text, style: CellStyle = []) {
        for y in max(0, rect.y)..<min(size.rows, rect.maxY) {
            for x in max(0, rect.x)..<min(size.columns, rect.maxX) {
                self[x: x, y: y] = Cell(" ", role: role, style: style)
            }
        }
    }

    /// Adds `style` to a run of cells, e.g. reverses a highlighted row across its whole width.
    public mutating func addStyle(_ style: CellStyle, y: Int, from x: Int, width: Int) {
        guard y >= 0 && y < size.rows else { return }
        for column in max(0, x)..<min(size.columns, x + width) {
            self[x: column, y: y].style.formUnion(style)
        }
    }

    /// Draws a border around `rect` with an optional title in the top edge.
    /// A box in `role`; its title in `titleRole` when given. A pane shows focus by its title alone: a whole
    /// border recoloured on every Tab cost the terminal two kilobytes a key.
    public mutating func drawBox(
        _ rect: Rect, glyphs: BorderGlyphs, role: Theme.Role, title: String? = nil, titleRole: Theme.Role? = nil
    ) {
        guard rect.width >= 2 && rect.height >= 2 else { return }
        let horizontal = String(repeating: glyphs.horizontal, count: rect.width - 2)
        write(glyphs.topLeft + horizontal + glyphs.topRight, x: rect.x, y: rect.y, role: role)
        write(glyphs.bottomLeft + horizontal + glyphs.bottomRight, x: rect.x, y: rect.maxY - 1, role: role)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            write(glyphs.vertical, x: rect.x, y: y, role: role)
            write(glyphs.vertical, x: rect.maxX - 1, y: y, role: role)
        }
        if let title, rect.width > 6 {
            let text = " " + ColumnWidth.truncate(title, to: rect.width - 6) + " "
            write(text, x: rect.x + 2, y: rect.y, role: titleRole ?? role, style: .bold, limit: rect.maxX - 2)
        }
    }

    /// Each row as plain text, trailing blanks trimmed: what tests and snapshots read.
    public var lines: [String] {
        (0..<size.rows).map { y in
            var line = ""
            for x in 0..<size.columns { line += self[x: x, y: y].text }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The whole frame as text, one row a line.
    public var text: String { lines.joined(separator: "\n") }
}

extension Frame {
    /// How many cells differ from `other` (of the same size): what ncurses has to repaint.
    public func changedCells(to other: Frame) -> Int {
        guard size == other.size else { return cells.count }
        return zip(cells, other.cells).filter { $0 != $1 }.count
    }
}
