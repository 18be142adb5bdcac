// posix_openpt, grantpt, unlockpt and ptsname_r are X/Open and GNU interfaces.
#define _GNU_SOURCE

#include "CTerminal.h"

#include <ncursesw/curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <spawn.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal = 0;

static void on_stop_signal(int sig) { stop_signal = sig; }

void pws_install_stop_handlers(void) {
    struct sigaction sa;
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int pws_pending_stop_signal(void) { return stop_signal; }

void pws_restore_default_stop_handlers(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
}

static struct termios saved_termios;
static int has_saved_termios = 0;

// Settings found with neither ICANON nor ECHO are a raw mode a killed program left where no shell repairs it (a tmux
// command, a script, an IDE task): restoring them left the terminal unusable after `q` (h3 09). They are saved as
// `stty sane` makes them, but for the line speed, character size and iutf8, which stay the terminal's.
static void make_usable(struct termios *mode) {
    if (mode->c_lflag & (ICANON | ECHO)) return;
    mode->c_iflag &= ~(IGNBRK | INLCR | IGNCR | IXOFF | IXANY);
    mode->c_iflag |= BRKINT | ICRNL | IMAXBEL;
    mode->c_oflag &= ~(OCRNL | ONOCR | ONLRET);
    mode->c_oflag |= OPOST | ONLCR;
    mode->c_cflag |= CREAD;
    mode->c_lflag &= ~(ECHONL | NOFLSH | TOSTOP | ECHOPRT);
    mode->c_lflag |= ICANON | ISIG | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
    // A raw mode may have disabled the line-editing characters: each gets its usual key back.
    const struct { int index; cc_t key; } keys[] = {
        {VINTR, 003}, {VQUIT, 034}, {VERASE, 0177}, {VKILL, 025}, {VEOF, 004},
        {VSTART, 021}, {VSTOP, 023}, {VSUSP, 032}, {VWERASE, 027}, {VLNEXT, 026},
    };
    for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (mode->c_cc[keys[i].index] == _POSIX_VDISABLE) mode->c_cc[keys[i].index] = keys[i].key;
    }
    mode->c_cc[VMIN] = 1;
    mode->c_cc[VTIME] = 0;
}

void pws_save_termios(void) {
    if (tcgetattr(STDIN_FILENO, &saved_termios) != 0) return;
    make_usable(&saved_termios);
    has_saved_termios = 1;
}

void pws_restore_termios(void) {
    if (has_saved_termios) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
}

// A crash (a Swift trap, a bad pointer) must not leave the terminal raw and in the alternate screen:
// the handler restores it, then re-installs the previous handler (Swift's backtracer prints its report on
// a usable terminal) and raises the signal again.
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_crash_actions[CRASH_SIGNAL_COUNT];

static void on_crash(int sig) {
    endwin();
    pws_restore_termios();
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] == sig) sigaction(sig, &previous_crash_actions[i], NULL);
    }
    raise(sig);
}

void pws_install_crash_handlers(void) {
    struct sigaction sa;
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        sigaction(crash_signals[i], &sa, &previous_crash_actions[i]);
    }
}

void pws_restore_crash_handlers(void) {
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        sigaction(crash_signals[i], &previous_crash_actions[i], NULL);
    }
}

// A closed pty reads as end of file or EIO at once, so curses' key wait returns without waiting: without
// this check the loop would spin, redrawing into a dead terminal.
int pws_terminal_gone(void) {
    struct pollfd input = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&input, 1, 0) <= 0) return 0;
    return (input.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

int pws_open_pseudo_terminal(unsigned short rows, unsigned short columns, int *master, char *name, unsigned long length) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0) return errno;
    struct winsize size = {.ws_row = rows, .ws_col = columns};
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, length) != 0 ||
        ioctl(fd, TIOCSWINSZ, &size) != 0) {
        int error = errno;
        close(fd);
        return error;
    }
    *master = fd;
    return 0;
}

short pws_spawn_new_session_flag(void) { return POSIX_SPAWN_SETSID; }
