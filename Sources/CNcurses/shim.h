// SwiftPM drops pkg-config's -D flags, so turn on the wide-character API here,
// and expose the macros Swift cannot import as small inline functions.
#ifndef PAYWALLSIM_CNCURSES_SHIM_H
#define PAYWALLSIM_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <unistd.h>
#include <sys/ioctl.h>
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
// Whether the terminal has an alternate screen to leave (rmcup): a vt100 has none, and the last frame stays.
static inline int pws_has_alternate_screen(void) {
    char *leave = tigetstr("rmcup");
    return leave != NULL && leave != (char *)-1 && leave[0] != 0;
}
static inline int pws_stdin_is_terminal(void) { return isatty(STDIN_FILENO); }
static inline int pws_stdout_is_terminal(void) { return isatty(STDOUT_FILENO); }
// The terminal's size before curses starts: 0 and rows, columns when the terminal says; -1 when it cannot.
static inline int pws_terminal_size(int *rows, int *columns) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

// Draws UTF-8 text at a position with attributes and a color pair; ncursesw decodes it by the locale.
static inline void pws_draw(int y, int x, const char *utf8, attr_t attrs, short pair) {
    attr_set(attrs, pair, NULL);
    mvaddstr(y, x, utf8);
}

// Signal handlers, the saved termios and the crash handlers are in the CTerminal target: state
// defined once, not once per Swift file that includes this header.
#endif
