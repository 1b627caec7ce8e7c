#include "lazy_library.h"

#include <dlfcn.h>
#include <stdio.h>

const char *lazy_load(lazy_library *library) {
  pthread_mutex_lock(&library->lock);
  if (library->state == 0) {
    library->state = -1;
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
      const char *reason = dlerror();
      snprintf(library->failure, sizeof library->failure, "%s", reason != NULL ? reason : library->soname);
    } else {
      size_t found = 0;
      for (; found < library->count; found++) {
        void *symbol = dlsym(handle, library->names[found]);
        if (symbol == NULL) {
          snprintf(library->failure, sizeof library->failure, "%s has no function %s", library->soname,
                   library->names[found]);
          break;
        }
        library->slots[found] = symbol;
      }
      if (found == library->count) library->state = 1;
    }
  }
  int loaded = library->state == 1;
  pthread_mutex_unlock(&library->lock);
  return loaded ? NULL : library->failure;
}
