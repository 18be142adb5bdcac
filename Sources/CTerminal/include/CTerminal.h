// The terminal's process-wide state, defined once in terminal.c: the stop-signal flag, the user's saved
// termios and the crash handlers. Header statics would exist once per Swift file that includes them
// (the release build read a flag the handler never wrote), so this header only declares.
#ifndef PAYWALLSIM_CTERMINAL_H
#define PAYWALLSIM_CTERMINAL_H

// Signals only set a flag; the main loop sees it and restores the terminal.
void pws_install_stop_handlers(void);
// The signal that asked the program to stop (SIGINT, SIGTERM, SIGHUP), or 0.
int pws_pending_stop_signal(void);
// After the screen ends, ^C must stop the program again the usual way.
void pws_restore_default_stop_handlers(void);

// The user's own terminal settings, restored on every exit path; a raw mode found (no ICANON, no ECHO: a killed
// program's) is saved as `stty sane` makes it, so quitting never leaves the terminal unusable.
void pws_save_termios(void);
void pws_restore_termios(void);

// A crash restores the terminal, then hands the signal on to whoever had it before.
void pws_install_crash_handlers(void);
void pws_restore_crash_handlers(void);

// 1 when the terminal has gone (hung up, closed, read error): the loop quits as on SIGHUP.
int pws_terminal_gone(void);

// A new pseudo-terminal of rows x columns for a child to run in (`bench terminal`): its master end in
// *master and the path of its other end in name. 0, or the errno of the step that failed. In C because
// setting the size is ioctl, which Swift cannot call.
int pws_open_pseudo_terminal(unsigned short rows, unsigned short columns, int *master, char *name, unsigned long length);
// posix_spawn's flag for a new session (POSIX_SPAWN_SETSID, a GNU name Swift's Glibc does not see).
short pws_spawn_new_session_flag(void);
#endif
