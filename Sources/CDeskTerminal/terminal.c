#define _XOPEN_SOURCE_EXTENDED 1
#define _GNU_SOURCE 1
#define NCURSES_WIDECHAR 1
#include "cdesk_terminal.h"

#include <langinfo.h>
#include <locale.h>
#include <ncursesw/curses.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

static int active = 0;
static SCREEN *virtual_screen = NULL;
static FILE *virtual_out = NULL;
static FILE *virtual_in = NULL;
static volatile sig_atomic_t pending_signal = 0;
static volatile sig_atomic_t pending_resize = 0;
static int read_timeout = 50;
static short next_pair = 1;
static short pair_table[9][9];

void cdt_setup_locale(void) {
  setlocale(LC_ALL, "");
  const char *codeset = nl_langinfo(CODESET);
  if (codeset == NULL || (strcmp(codeset, "UTF-8") != 0 && strcmp(codeset, "utf8") != 0)) {
    setlocale(LC_CTYPE, "C.UTF-8");
  }
}

static void remember_resize(int signal_number) {
  (void)signal_number;
  pending_resize = 1;
}

static void configure(int escape_delay_ms, int read_timeout_ms) {
  /* Raw: every key arrives as the bytes the terminal sends, Ctrl-C and Ctrl-Z too (they never
     stop or suspend the desk), and the desk decodes them itself (DeskUI's KeyDecoder). */
  raw();
  noecho();
  nonl();
  keypad(stdscr, FALSE);
  set_escdelay(escape_delay_ms);
  timeout(read_timeout_ms);
  read_timeout = read_timeout_ms;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = remember_resize;
  sigemptyset(&action.sa_mask);
  sigaction(SIGWINCH, &action, NULL);
  memset(pair_table, 0, sizeof pair_table);
  next_pair = 1;
  active = 1;
}

int cdt_start(int escape_delay_ms, int read_timeout_ms) {
  if (initscr() == NULL) return -1;
  configure(escape_delay_ms, read_timeout_ms);
  /* A window resized while curses started (a tmux pane split as the desk opens) sent its
     SIGWINCH before the handler above was there: the size is asked again now, or the desk would
     paint for the old width and the terminal wrap every line (seen in CI). */
  struct winsize size;
  if (ioctl(0, TIOCGWINSZ, &size) == 0 && (size.ws_row != LINES || size.ws_col != COLS)) pending_resize = 1;
  return 0;
}

int cdt_start_virtual(const char *term, int rows, int columns) {
  virtual_out = fopen("/dev/null", "w");
  virtual_in = fopen("/dev/null", "r");
  if (virtual_out == NULL || virtual_in == NULL) return -1;
  virtual_screen = newterm(term, virtual_out, virtual_in);
  if (virtual_screen == NULL) return -1;
  set_term(virtual_screen);
  resizeterm(rows, columns);
  configure(25, 0);
  return 0;
}

void cdt_stop(void) {
  if (!active) return;
  active = 0;
  endwin();
  if (virtual_screen != NULL) {
    delscreen(virtual_screen);
    virtual_screen = NULL;
    fclose(virtual_out);
    fclose(virtual_in);
  }
}

int cdt_is_active(void) { return active; }

int cdt_start_colors(void) {
  if (!has_colors()) return 0;
  if (start_color() != OK) return 0;
  use_default_colors();
  return 1;
}

int cdt_pair(int foreground, int background) {
  int f = foreground < 0 ? 8 : foreground;
  int b = background < 0 ? 8 : background;
  if (pair_table[f][b] != 0) return pair_table[f][b];
  if (next_pair >= COLOR_PAIRS) return 0;
  init_pair(next_pair, (short)foreground, (short)background);
  pair_table[f][b] = next_pair;
  return next_pair++;
}

void cdt_size(int *rows, int *columns) {
  int y, x;
  getmaxyx(stdscr, y, x);
  *rows = y;
  *columns = x;
}

void cdt_erase(void) { erase(); }

void cdt_draw(int row, int column, const char *utf8, int attributes, int pair) {
  attr_t attrs = A_NORMAL;
  if (attributes & 1) attrs |= A_BOLD;
  if (attributes & 2) attrs |= A_REVERSE;
  if (attributes & 4) attrs |= A_UNDERLINE;
  if (attributes & 8) attrs |= A_DIM;
  attr_set(attrs, (short)pair, NULL);
  mvaddstr(row, column, utf8);
  attr_set(A_NORMAL, 0, NULL);
}

void cdt_cursor(int visible, int row, int column) {
  if (visible) {
    curs_set(1);
    move(row, column);
  } else {
    curs_set(0);
  }
}

void cdt_refresh(void) { refresh(); }

/* The terminal's bell, or a flash of the screen where it has none (curses' beep decides). */
void cdt_bell(void) { beep(); }

int cdt_read_bytes(uint8_t *buffer, int capacity, int wait) {
  if (pending_resize) {
    pending_resize = 0;
    struct winsize size;
    if (ioctl(0, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
      resizeterm(size.ws_row, size.ws_col);
    }
    return -2;
  }
  struct pollfd input = {.fd = 0, .events = POLLIN, .revents = 0};
  int ready = poll(&input, 1, wait ? read_timeout : 0);
  if (ready <= 0) return 0; /* nothing in time, or a signal came: the caller looks at it */
  if ((input.revents & POLLIN) == 0 && (input.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) return -1;
  ssize_t count = read(0, buffer, (size_t)capacity);
  if (count == 0) return -1; /* end of input: the terminal is gone */
  if (count < 0) return 0;
  return (int)count;
}

static void remember_signal(int signal_number) { pending_signal = signal_number; }

static void restore_and_die(int signal_number) {
  if (active) endwin();
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

void cdt_install_signal_handlers(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = remember_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGHUP, &action, NULL);
  signal(SIGSEGV, restore_and_die);
  signal(SIGABRT, restore_and_die);
  signal(SIGILL, restore_and_die);
  signal(SIGBUS, restore_and_die);
  signal(SIGFPE, restore_and_die);
  signal(SIGTRAP, restore_and_die);
}

int cdt_pending_signal(void) {
  int value = pending_signal;
  pending_signal = 0;
  return value;
}

int cdt_read_line(int row, uint32_t *buffer, int capacity) {
  wchar_t line[1024];
  int columns = getmaxx(stdscr);
  int wanted = columns < 1023 ? columns : 1023;
  int count = mvinnwstr(row, 0, line, wanted);
  if (count < 0) return 0;
  int n = 0;
  for (int i = 0; i < count && n < capacity; i++) buffer[n++] = (uint32_t)line[i];
  return n;
}

int cdt_cell_attributes(int row, int column) {
  cchar_t cell;
  if (mvin_wch(row, column, &cell) == ERR) return 0;
  attr_t attrs;
  short pair;
  wchar_t text[CCHARW_MAX + 1];
  getcchar(&cell, text, &attrs, &pair, NULL);
  int result = 0;
  if (attrs & A_BOLD) result |= 1;
  if (attrs & A_REVERSE) result |= 2;
  if (attrs & A_UNDERLINE) result |= 4;
  if (attrs & A_DIM) result |= 8;
  return result;
}

int cdt_spawn_on_pseudo_terminal(char *const argv[], char *const envp[], int *master, int *pid) {
  int terminal = posix_openpt(O_RDWR | O_NOCTTY);
  if (terminal < 0) return errno;
  char name[128];
  if (grantpt(terminal) != 0 || unlockpt(terminal) != 0 || ptsname_r(terminal, name, sizeof name) != 0) {
    int error = errno;
    close(terminal);
    return error;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // Opened after the new session begins: the terminal becomes the child's controlling one.
  for (int descriptor = 0; descriptor < 3; descriptor++) {
    posix_spawn_file_actions_addopen(&actions, descriptor, name, O_RDWR, 0);
  }
  posix_spawn_file_actions_addclose(&actions, terminal);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
  pid_t child = 0;
  int error = posix_spawnp(&child, argv[0], &actions, &attributes, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) {
    close(terminal);
    return error;
  }
  *master = terminal;
  *pid = child;
  return 0;
}
