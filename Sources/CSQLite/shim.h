#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

// sqlite3_config is variadic; Swift cannot call it. Turns off SQLite's count of the memory it
// holds, which takes a process-wide mutex on every allocation. Only before the first connection
// opens: afterwards SQLite refuses with SQLITE_MISUSE and nothing changes.
static inline int csqlite_stop_counting_memory(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
