// SwiftPM drops pkg-config's -D flags, so turn on the wide-character API here,
// and expose the macros Swift cannot import as small inline functions.
#ifndef PAYWALLSIM_CNCURSES_SHIM_H
#define PAYWALLSIM_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>
#include <ncursesw/curses.h>

static inline WINDOW *pws_stdscr(void) { return stdscr; }
static inline int pws_lines(void) { return LINES; }
static inline int pws_cols(void) { return COLS; }
static inline int pws_colors(void) { return COLORS; }
static inline int pws_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t pws_a_bold(void) { return A_BOLD; }
static inline attr_t pws_a_dim(void) { return A_DIM; }
static inline attr_t pws_a_reverse(void) { return A_REVERSE; }
static inline attr_t pws_a_underline(void) { return A_UNDERLINE; }
static inline attr_t pws_a_normal(void) { return A_NORMAL; }
static inline int pws_set_locale(void) { return setlocale(LC_ALL, "") != NULL; }

// Glibc declares wcwidth only for _XOPEN_SOURCE, which its own Swift module is not built with.
extern int wcwidth(wchar_t);
static inline int pws_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

// newterm, unlike initscr, returns NULL for an unknown $TERM instead of exiting the process.
static inline SCREEN *pws_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline int pws_stdin_is_terminal(void) { return isatty(STDIN_FILENO); }
static inline int pws_stdout_is_terminal(void) { return isatty(STDOUT_FILENO); }

// Draws UTF-8 text at a position with attributes and a color pair; ncursesw decodes it by the locale.
static inline void pws_draw(int y, int x, const char *utf8, attr_t attrs, short pair) {
    attr_set(attrs, pair, NULL);
    mvaddstr(y, x, utf8);
}

// Signals only set a flag; the main loop sees it and restores the terminal.
// These statics exist once per Swift file that uses them: call them from one Swift file only
// (TerminalUI/TerminalSession.swift).
static volatile sig_atomic_t pws_stop_signal = 0;
static inline void pws_on_signal(int sig) { pws_stop_signal = sig; }
static inline void pws_install_stop_handlers(void) {
    struct sigaction sa;
    sa.sa_handler = pws_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}
static inline int pws_pending_stop_signal(void) { return pws_stop_signal; }
// After the screen ends, ^C must stop the program again the usual way.
static inline void pws_restore_default_stop_handlers(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
}

// The user's own terminal settings, restored on every exit path.
// Behind a function: a file-scope `static struct termios x;` was not emitted by Swift's importer
// (undefined symbol at link time).
static inline struct termios *pws_saved_termios(void) {
    static struct termios saved;
    return &saved;
}
static int pws_has_saved_termios = 0;
static inline void pws_save_termios(void) {
    if (tcgetattr(STDIN_FILENO, pws_saved_termios()) == 0) pws_has_saved_termios = 1;
}
static inline void pws_restore_termios(void) {
    if (pws_has_saved_termios) tcsetattr(STDIN_FILENO, TCSANOW, pws_saved_termios());
}

// A crash (a Swift trap, a bad pointer) must not leave the terminal raw and in the alternate screen:
// the handler restores it, then hands the signal to whoever had it before (Swift's backtracer prints
// its report on a usable terminal), by re-installing that handler and raising the signal again.
static inline struct sigaction *pws_previous_crash_actions(void) {
    static struct sigaction previous[32];
    return previous;
}
static inline void pws_on_crash(int sig) {
    endwin();
    pws_restore_termios();
    sigaction(sig, &pws_previous_crash_actions()[sig], NULL);
    raise(sig);
}
static inline void pws_install_crash_handlers(void) {
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    struct sigaction sa;
    sa.sa_handler = pws_on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaction(signals[i], &sa, &pws_previous_crash_actions()[signals[i]]);
    }
}
static inline void pws_restore_crash_handlers(void) {
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaction(signals[i], &pws_previous_crash_actions()[signals[i]], NULL);
    }
}
#endif
