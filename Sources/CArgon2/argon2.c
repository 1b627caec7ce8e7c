#include "cargon2.h"

#include <argon2.h>
#include <lazy_library.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

// libargon2 is loaded when a kiosk account is made or a kiosk logs in: the desk never needs it.
#define ARGON2_FUNCTIONS(X) X(argon2id_hash_encoded) X(argon2id_verify) X(argon2_error_message)
#define ARGON2_FIELD(name) __typeof__(name) *name;
#define ARGON2_NAME(name) #name,
static struct { ARGON2_FUNCTIONS(ARGON2_FIELD) } lib;
static const char *const names[] = {ARGON2_FUNCTIONS(ARGON2_NAME)};
static lazy_library libargon2 = LAZY_LIBRARY("libargon2.so.1", names, lib);
LAZY_FUNCTIONS_MATCH(names, lib);

// OWASP's first choice for Argon2id: 19 MiB, two passes, one lane (about 30 ms here).
enum { TIME_COST = 2, MEMORY_KIB = 19456, LANES = 1, SALT_BYTES = 16, HASH_BYTES = 32 };

// Argon2 takes its 19 MiB with malloc. glibc raises its threshold for mapping a block of its
// own after the first such block is freed, and each kiosk's thread then kept its 19 MiB in its
// arena: a hundred logins at once left the server at 426 MB. Fixed at 1 MiB, every such block is
// mapped, and unmapped when freed.
static pthread_once_t threshold_fixed = PTHREAD_ONCE_INIT;
static void fix_threshold(void) { mallopt(M_MMAP_THRESHOLD, 1 << 20); }

static int loaded(char *message) {
  pthread_once(&threshold_fixed, fix_threshold);
  const char *failure = lazy_load(&libargon2);
  if (failure == NULL) return 1;
  snprintf(message, 256, "libargon2 cannot be loaded (%s): install it (apt-get install libargon2-1)", failure);
  return 0;
}

int cargon2_hash(const char *password, size_t length, char *encoded, size_t capacity, char *message) {
  if (!loaded(message)) return -1;
  unsigned char salt[SALT_BYTES];
  if (getrandom(salt, sizeof salt, 0) != (ssize_t)sizeof salt) {
    snprintf(message, 256, "the system gave no random bytes for the salt");
    return -1;
  }
  int result = lib.argon2id_hash_encoded(TIME_COST, MEMORY_KIB, LANES, password, length, salt, sizeof salt,
                                         HASH_BYTES, encoded, capacity);
  if (result != ARGON2_OK) {
    snprintf(message, 256, "%s", lib.argon2_error_message(result));
    return -1;
  }
  return 0;
}

int cargon2_verify(const char *encoded, const char *password, size_t length, char *message) {
  if (!loaded(message)) return -1;
  int result = lib.argon2id_verify(encoded, password, length);
  if (result == ARGON2_OK) return 1;
  if (result == ARGON2_VERIFY_MISMATCH) return 0;
  snprintf(message, 256, "%s", lib.argon2_error_message(result));
  return -1;
}
