// libpq, PostgreSQL's client library (Debian's libpq-dev).
#include <postgresql/libpq-fe.h>
