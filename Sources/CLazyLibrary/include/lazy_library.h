#ifndef LAZY_LIBRARY_H
#define LAZY_LIBRARY_H

#include <stddef.h>

// A system library loaded when first used, not by the dynamic loader before `main`: the desk's
// first screen needs SQLite and ncurses only, while zbar, libcurl and libpq bring some fifty
// libraries (X11, D-Bus, OpenSSL, GnuTLS, LDAP, Kerberos) that each start would resolve.
// Each user keeps its functions in a struct of pointers typed `__typeof__(name) *`, so that the
// compiler checks every call against the library's own header.

// Opens `library` (a soname such as "libzbar.so.0"); NULL, with the reason in `failure`, when
// it cannot be loaded.
void *lazy_open(const char *library, char *failure, size_t size);

// The address of function `name` in the opened `handle`; NULL, with the reason in `failure`,
// when the library lacks it (a version older than the one built against).
void *lazy_symbol(void *handle, const char *library, const char *name, char *failure, size_t size);

#endif
