#include "cpostgres.h"

#include <lazy_library.h>
#include <stdio.h>

#define CPQ_NAME(name) #name,
static const char *const names[] = {CPQ_FUNCTIONS(CPQ_NAME)};
static cpq_functions functions;
// Debian's soname of libpq since PostgreSQL 8.3.
static lazy_library libpq = LAZY_LIBRARY("libpq.so.5", names, functions);
LAZY_FUNCTIONS_MATCH(names, functions);

const cpq_functions *cpq_load(char *reason, size_t size) {
  const char *failure = lazy_load(&libpq);
  if (failure == NULL) return &functions;
  if (size > 0) snprintf(reason, size, "%s", failure);
  return NULL;
}
