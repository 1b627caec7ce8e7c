#ifndef CPOSTGRES_H
#define CPOSTGRES_H

// libpq, PostgreSQL's client library (Debian's libpq5; its header from libpq-dev), loaded the
// first time the desk talks to a central: a desk on its own never loads it, nor the TLS, LDAP and
// Kerberos libraries it brings, which the dynamic loader would otherwise resolve at every start.

#include <stddef.h>
#include <postgresql/libpq-fe.h>

// The functions the desk calls, each checked against libpq's own declaration.
#define CPQ_FUNCTIONS(X)                                                                          \
  X(PQclear) X(PQcmdTuples) X(PQconnectdb) X(PQconninfoFree) X(PQconninfoParse)                  \
  X(PQconsumeInput) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQfinish) X(PQfreemem)         \
  X(PQgetCopyData) X(PQgetResult) X(PQgetisnull) X(PQgetvalue) X(PQnfields) X(PQnotifies)        \
  X(PQntuples) X(PQputCopyData) X(PQputCopyEnd) X(PQresultErrorField) X(PQresultErrorMessage)    \
  X(PQresultStatus) X(PQsetNoticeProcessor) X(PQsocket) X(PQstatus)

typedef struct {
#define CPQ_FIELD(name) __typeof__(name) *_Nonnull name;
  CPQ_FUNCTIONS(CPQ_FIELD)
#undef CPQ_FIELD
} cpq_functions;

// libpq's functions, loaded at the first call (once, whichever thread calls first); NULL when
// libpq cannot be loaded, with the loader's reason in `reason`.
const cpq_functions *_Nullable cpq_load(char *_Nonnull reason, size_t size);

#endif
