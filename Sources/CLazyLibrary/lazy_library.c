#include "lazy_library.h"

#include <dlfcn.h>
#include <stdio.h>

void *lazy_open(const char *library, char *failure, size_t size) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(failure, size, "%s", reason != NULL ? reason : library);
  }
  return handle;
}

void *lazy_symbol(void *handle, const char *library, const char *name, char *failure, size_t size) {
  void *symbol = dlsym(handle, name);
  if (symbol == NULL) snprintf(failure, size, "%s has no function %s", library, name);
  return symbol;
}
