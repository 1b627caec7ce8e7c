#include "cpostgres.h"

#include <lazy_library.h>
#include <pthread.h>
#include <stdio.h>

// Debian's soname of libpq since PostgreSQL 8.3.
static const char *const library = "libpq.so.5";

static cpq_functions functions;
static int loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  void *handle = lazy_open(library, failure, sizeof failure);
  if (handle == NULL) return;
#define CPQ_LOAD(name) \
  if ((functions.name = (__typeof__(name) *)lazy_symbol(handle, library, #name, failure, sizeof failure)) == NULL) return;
  CPQ_FUNCTIONS(CPQ_LOAD)
#undef CPQ_LOAD
  loaded = 1;
}

const cpq_functions *cpq_load(char *reason, size_t size) {
  pthread_once(&once, load);
  if (loaded) return &functions;
  if (size > 0) snprintf(reason, size, "%s", failure);
  return NULL;
}
