#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

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
// FTS5's own tokenizer, reached through `fts5_api`: the words of a text exactly as a full-text
// index that uses it stores them. Swift cannot call the API's function pointers through the
// structs SQLite hands out, nor bind the pointer that `SELECT fts5(?1)` fills.
typedef struct csqlite_tokenizer {
  fts5_tokenizer methods;
  Fts5Tokenizer *tokenizer;
} csqlite_tokenizer;

typedef void (*csqlite_word_found)(void *context, const char *word, int length);

// The tokenizer `name` made with `arguments`, as `tokenize='name arguments...'` makes it; NULL
// when this SQLite has no FTS5 or no such tokenizer. Closed by `csqlite_tokenizer_close`.
static inline csqlite_tokenizer *csqlite_tokenizer_open(
    sqlite3 *db, const char *name, const char **arguments, int count) {
  fts5_api *api = 0;
  sqlite3_stmt *statement = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return 0;
  sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
  sqlite3_step(statement);
  sqlite3_finalize(statement);
  if (!api) return 0;
  void *context = 0;
  fts5_tokenizer methods;
  if (api->xFindTokenizer(api, name, &context, &methods) != SQLITE_OK) return 0;
  csqlite_tokenizer *result = sqlite3_malloc(sizeof *result);
  if (!result) return 0;
  result->methods = methods;
  if (methods.xCreate(context, arguments, count, &result->tokenizer) != SQLITE_OK) {
    sqlite3_free(result);
    return 0;
  }
  return result;
}

struct csqlite_word_sink {
  void *context;
  csqlite_word_found found;
};

static int csqlite_token(void *sink, int flags, const char *token, int length, int start, int end) {
  (void)start;
  (void)end;
  // A colocated token is a synonym of the one before, at the same place: not a word of its own.
  if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
  struct csqlite_word_sink *words = sink;
  words->found(words->context, token, length);
  return SQLITE_OK;
}

// Calls `found` with each word of `text` (UTF-8, `length` bytes), in order, repeats included.
static inline int csqlite_tokenize(
    csqlite_tokenizer *tokenizer, const char *text, int length, void *context, csqlite_word_found found) {
  struct csqlite_word_sink sink = {context, found};
  return tokenizer->methods.xTokenize(
      tokenizer->tokenizer, &sink, FTS5_TOKENIZE_DOCUMENT, text, length, csqlite_token);
}

static inline void csqlite_tokenizer_close(csqlite_tokenizer *tokenizer) {
  if (!tokenizer) return;
  tokenizer->methods.xDelete(tokenizer->tokenizer);
  sqlite3_free(tokenizer);
}
// A file system like the default one whose clock, as SQLite reads it ('now' in SQL), runs
// `offset` milliseconds off the machine's: a library whose desk's clock is set wrong, in the
// sync simulation, while the process's other desks keep the machine's time. The struct begins
// with the default VFS copied whole (its methods read only fields of that copy), so every file
// operation is the default one's.
typedef struct csqlite_shifted_vfs {
  sqlite3_vfs vfs;
  sqlite3_vfs *base;
  sqlite3_int64 offset;
  char name[48];
} csqlite_shifted_vfs;

static int csqlite_shifted_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
  csqlite_shifted_vfs *shifted = (csqlite_shifted_vfs *)vfs;
  int code = shifted->base->xCurrentTimeInt64(shifted->base, now);
  *now += shifted->offset;
  return code;
}

static int csqlite_shifted_time(sqlite3_vfs *vfs, double *now) {
  sqlite3_int64 milliseconds = 0;
  int code = csqlite_shifted_time_int64(vfs, &milliseconds);
  *now = milliseconds / 86400000.0;
  return code;
}

// Registers (once per offset) the file system whose clock runs `offset` milliseconds off, and
// writes its name into `name` (48 bytes); SQLITE_OK, or why not.
static inline int csqlite_register_shifted_clock(sqlite3_int64 offset, char *name) {
  int code = sqlite3_initialize();
  if (code != SQLITE_OK) return code;
  snprintf(name, 48, "circdesk-clock%+lld", (long long)offset);
  if (sqlite3_vfs_find(name)) return SQLITE_OK;
  sqlite3_vfs *base = sqlite3_vfs_find(0);
  if (!base || base->iVersion < 2 || !base->xCurrentTimeInt64) return SQLITE_ERROR;
  csqlite_shifted_vfs *shifted = sqlite3_malloc(sizeof *shifted);
  if (!shifted) return SQLITE_NOMEM;
  memcpy(&shifted->vfs, base, sizeof shifted->vfs);
  shifted->base = base;
  shifted->offset = offset;
  memcpy(shifted->name, name, 48);
  shifted->vfs.zName = shifted->name;
  shifted->vfs.pNext = 0;
  shifted->vfs.xCurrentTime = csqlite_shifted_time;
  shifted->vfs.xCurrentTimeInt64 = csqlite_shifted_time_int64;
  return sqlite3_vfs_register(&shifted->vfs, 0);
}

#endif
