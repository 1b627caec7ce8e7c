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
#endif
