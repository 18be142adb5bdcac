import CNcurses
import CTerminal
import WhiteLabel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal in curses mode, from `start` until `end` gives the user's own settings back.
final class TerminalSession {
    private var screen: OpaquePointer?
    private(set) var palette: Palette
    /// The locale shows UTF-8; under LANG=C frames are drawn in ASCII.
    let isUnicode: Bool
    private var ended = false

    private init(screen: OpaquePointer, palette: Palette, isUnicode: Bool) {
        self.screen = screen
        self.palette = palette
        self.isUnicode = isUnicode
    }

    /// Checks, before anything is created on disk, that the screen can start here: a terminal on both
    /// ends, of a type that can move the cursor, at least `TerminalSize.minimum` in size.
    static func check() throws(TerminalError) {
        guard pws_stdin_is_terminal() != 0 else { throw .notATerminal("input") }
        guard pws_stdout_is_terminal() != 0 else { throw .notATerminal("output") }
        let term = getenv("TERM").map { String(cString: $0) }
        guard let term, !term.isEmpty else { throw .unknownTerminalType(nil) }
        guard term != "dumb" else { throw .dumbTerminal }
        // Too small for the phone at the start: bad input, said before anything is made (exit 2). A terminal that
        // shrinks during a run shows why instead and waits for it to grow, keeping the session. A size the terminal
        // does not say (0x0) is left to curses.
        var rows: Int32 = 0
        var columns: Int32 = 0
        if pws_terminal_size(&rows, &columns) == 0, rows > 0, columns > 0 {
            let size = TerminalSize(columns: Int(columns), rows: Int(rows))
            guard size.fitsMinimum else { throw .tooSmall(size) }
        }
    }

    /// Puts the terminal in curses mode, or explains why it cannot.
    static func start(theme: Theme) throws(TerminalError) -> TerminalSession {
        try check()
        pws_save_termios()
        // Before newterm: ncurses only installs its own SIGINT/SIGTERM handlers where none are set.
        pws_install_stop_handlers()
        pws_install_crash_handlers()
        _ = pws_set_locale()
        let isUnicode = String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8"
        guard let screen = pws_newterm() else {
            pws_restore_termios()
            throw .unknownTerminalType(getenv("TERM").map { String(cString: $0) })
        }
        // cbreak, not raw: ^C still raises SIGINT, which the handler turns into a clean exit.
        cbreak()
        noecho()
        keypad(pws_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        // The cursor is hidden: leave it where drawing ended, not moved back to the window's cursor each refresh.
        leaveok(pws_stdscr(), true)
        let palette = Palette(theme: theme, depth: startColors())
        initPairs(palette)
        return TerminalSession(screen: screen, palette: palette, isUnicode: isUnicode)
    }

    /// Another app's theme, on the terminal's colors (a guided walk moves between apps).
    func use(theme: Theme) {
        palette = Palette(theme: theme, depth: palette.depth)
        Self.initPairs(palette)
    }

    private static func initPairs(_ palette: Palette) {
        guard palette.depth != .monochrome else { return }
        let background: Int16 = use_default_colors() == OK ? -1 : Int16(COLOR_BLACK)
        for pair in palette.pairs.values {
            init_pair(pair.number, pair.foreground, background)
        }
    }

    /// Starts colors unless `NO_COLOR` is set (no-color.org) or the terminal has none.
    private static func startColors() -> Palette.Depth {
        let noColor = getenv("NO_COLOR").map { String(cString: $0) }
        guard Palette.depth(colors: 8, hasColors: has_colors(), noColor: noColor) != .monochrome else {
            return .monochrome
        }
        guard start_color() == OK else { return .monochrome }
        return Palette.depth(colors: Int(pws_colors()), hasColors: true, noColor: nil)
    }

    /// The signal (SIGINT, SIGTERM, SIGHUP) that asked the program to stop, if one came.
    var stopSignal: Int32? {
        let signal = pws_pending_stop_signal()
        if signal == 0 && terminalGone { return SIGHUP }
        return signal == 0 ? nil : signal
    }

    /// The terminal hung up or reads as closed: nothing typed can come any more.
    private var terminalGone = false

    var size: TerminalSize {
        TerminalSize(columns: Int(getmaxx(pws_stdscr())), rows: Int(getmaxy(pws_stdscr())))
    }

    /// Waits up to `milliseconds` for a key; nil when none came (or a signal interrupted the wait).
    func readKey(timeoutMilliseconds milliseconds: Int) -> KeyPress? {
        timeout(Int32(max(0, min(milliseconds, Int(Int32.max)))))
        var value: wint_t = 0
        switch get_wch(&value) {
        case KEY_CODE_YES: return .function(Int32(bitPattern: value))
        case OK: return Unicode.Scalar(value).map { .character(Character($0)) }
        default:
            // End of file or a read error on the terminal (its window closed): quit as on SIGHUP.
            if pws_terminal_gone() != 0 { terminalGone = true }
            return nil
        }
    }

    /// Drops every key typed and not read yet, ncurses' and the terminal's (`flushinp`).
    func discardTypeahead() {
        flushinp()
    }

    /// Leaves curses mode, restores the saved termios and the default signal handling (the stop signals' only when
    /// none came). Safe to call more than once.
    func end() {
        guard !ended else { return }
        ended = true
        // Without an alternate screen (TERM=vt100) leaving curses left the last frame on the terminal, under the
        // shell's prompt (session 27): the screen is cleared first.
        if screen != nil && pws_has_alternate_screen() == 0 {
            clear()
            refresh()
        }
        endwin()
        if let screen {
            delscreen(screen)
            self.screen = nil
        }
        pws_restore_termios()
        // A stop that came (a signal, or the terminal read as closed) ends the program: a further one is only noted.
        // Restored to the default, the SIGHUP a shell's exit sends its job after the pty read as closed killed the
        // program while it saved its clock, leaving a temp file and no clock (session 28).
        if stopSignal == nil { pws_restore_default_stop_handlers() }
        pws_restore_crash_handlers()
    }

    deinit {
        end()
    }
}
