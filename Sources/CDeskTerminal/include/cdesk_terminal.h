#ifndef CDESK_TERMINAL_H
#define CDESK_TERMINAL_H

#include <stdint.h>

// A thin layer over ncursesw for the Swift driver: the macros Swift cannot import
// (attributes, KEY_F, getmaxyx, ESCDELAY), signal handling that restores the terminal,
// and reading cells back for tests.

/// Sets the locale from the environment, falling back to C.UTF-8 when its codeset is not UTF-8.
void cdt_setup_locale(void);

/// Starts curses on the process's terminal. Returns 0 on success.
int cdt_start(int escape_delay_ms, int read_timeout_ms);
/// Starts curses on a virtual terminal of the given type writing to /dev/null, for tests.
int cdt_start_virtual(const char *term, int rows, int columns);
/// Ends curses and restores the terminal; safe to call more than once.
void cdt_stop(void);
int cdt_is_active(void);

/// Colours: 1 when colours are on.
int cdt_start_colors(void);
/// A colour pair for foreground and background (-1 for the terminal's default); 0 when none is left.
int cdt_pair(int foreground, int background);

void cdt_size(int *rows, int *columns);
void cdt_erase(void);
/// Draws UTF-8 text at a position with attributes (bit 0 bold, 1 reverse, 2 underline, 3 dim)
/// and a colour pair.
void cdt_draw(int row, int column, const char *utf8, int attributes, int pair);
void cdt_cursor(int visible, int row, int column);
void cdt_refresh(void);
void cdt_bell(void);
/* Reads the bytes the terminal sent: their count, 0 when none came within the read timeout (or,
   with wait 0, when none are waiting now), -1 when the terminal is gone, -2 when the window
   changed size (curses already knows the size). */
int cdt_read_bytes(uint8_t *buffer, int capacity, int wait);

/// Catches SIGINT, SIGTERM and SIGHUP (remembered for the main loop) and fatal signals (the
/// terminal is restored before the process dies).
void cdt_install_signal_handlers(void);
/// The signal caught since the last call, or 0.
int cdt_pending_signal(void);

/// Starts `argv` (with environment `envp`) in a new session on a new pseudo-terminal, as a
/// terminal emulator starts a program: the terminal's other end in `*master`, the child in
/// `*pid`. Returns 0, or an errno value. (For timing the desk's start as a librarian sees it.)
int cdt_spawn_on_pseudo_terminal(char *const argv[], char *const envp[], int *master, int *pid);

/// Reads a line of the virtual screen back as wide characters; returns the count.
int cdt_read_line(int row, uint32_t *buffer, int capacity);
/// The attributes of one cell, in the bit layout of cdt_draw.
int cdt_cell_attributes(int row, int column);

#endif
