#ifndef LAZY_LIBRARY_H
#define LAZY_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

// A system library loaded when first used, not by the dynamic loader before `main`: the desk's
// first screen needs SQLite and ncurses only, while zbar, libcurl and libpq bring some fifty
// libraries (X11, D-Bus, OpenSSL, GnuTLS, LDAP, Kerberos) that each start would resolve.
//
// A user keeps the functions it calls in a struct of pointers typed `__typeof__(name) *`, so
// that the compiler checks every call against the library's own header, and names them in an
// array of the same order:
//
//   #define ZBAR_FUNCTIONS(X) X(zbar_image_create) X(zbar_scan_image)
//   #define FIELD(name) __typeof__(name) *name;
//   #define NAME(name) #name,
//   static struct { ZBAR_FUNCTIONS(FIELD) } zbar;
//   static const char *const zbar_names[] = {ZBAR_FUNCTIONS(NAME)};
//   static lazy_library zbar_library = LAZY_LIBRARY("libzbar.so.0", zbar_names, zbar);
//   LAZY_FUNCTIONS_MATCH(zbar_names, zbar);
//   ...
//   if (lazy_load(&zbar_library) != NULL) { /* not installed: say so */ }
typedef struct {
  const char *soname;
  const char *const *names;
  void **slots;
  size_t count;
  pthread_mutex_t lock;
  int state;  // 0 not tried yet, 1 loaded, -1 failed
  char failure[300];
} lazy_library;

// The library `soname` whose functions `names` go into the struct `functions`, field by field.
#define LAZY_LIBRARY(soname, names, functions)                                                   \
  {(soname), (names), (void **)&(functions), sizeof(names) / sizeof((names)[0]),                \
   PTHREAD_MUTEX_INITIALIZER, 0, ""}

// Checked where the library is declared: the struct holds one pointer for each name.
#define LAZY_FUNCTIONS_MATCH(names, functions)                                                  \
  _Static_assert(sizeof(functions) == sizeof(names) / sizeof((names)[0]) * sizeof(void *),      \
                 "one pointer for each name")

// Loads the library the first time (whichever thread asks first; later calls return at once):
// NULL when its functions are in place, or why it cannot be loaded (not installed, or a version
// older than the one built against).
const char *lazy_load(lazy_library *library);

#endif
