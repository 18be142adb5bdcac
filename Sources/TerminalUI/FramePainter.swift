import CNcurses

/// Copies a frame to ncurses: one `mvaddstr` per run of equally styled cells, then one refresh.
/// ncurses diffs against what is on the terminal, so unchanged cells cost nothing on the wire.
enum FramePainter {
    /// `ascii`: the locale cannot show UTF-8, so every cell is drawn as one ASCII character.
    static func paint(_ frame: Frame, palette: Palette, clearFirst: Bool, ascii: Bool = false) {
        if clearFirst { clearok(pws_stdscr(), true) }
        for y in 0..<frame.size.rows {
            var x = 0
            while x < frame.size.columns {
                let first = frame[x: x, y: y]
                var text = ""
                var end = x
                while end < frame.size.columns {
                    let cell = frame[x: end, y: y]
                    guard cell.role == first.role && cell.style == first.style else { break }
                    text += ascii ? AsciiFallback.cell(cell.text) : cell.text
                    end += 1
                }
                pws_draw(
                    Int32(y), Int32(x), text, attributes(first.style.union(palette.style(for: first.role))),
                    palette.pairNumber(for: first.role))
                x = end
            }
        }
        refresh()
    }

    private static func attributes(_ style: CellStyle) -> attr_t {
        var attributes = pws_a_normal()
        if style.contains(.bold) { attributes |= pws_a_bold() }
        if style.contains(.dim) { attributes |= pws_a_dim() }
        if style.contains(.reverse) { attributes |= pws_a_reverse() }
        if style.contains(.underline) { attributes |= pws_a_underline() }
        return attributes
    }
}
