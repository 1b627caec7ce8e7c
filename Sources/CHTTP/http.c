#include "chttp.h"

// Plain functions, not libcurl's type-checking macros: they are called through `lib` below.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <lazy_library.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl is loaded at the first look-up, not at every start of the desk: it brings OpenSSL,
// GnuTLS, LDAP, Kerberos, SSH and RTMP, which the dynamic loader would otherwise resolve before
// the first screen. Each function is checked against libcurl's own declaration.
#define CURL_FUNCTIONS(X)                                                                    \
  X(curl_global_init) X(curl_easy_init) X(curl_easy_setopt) X(curl_easy_perform)           \
  X(curl_easy_getinfo) X(curl_easy_cleanup) X(curl_easy_strerror)

#define CURL_FIELD(name) __typeof__(name) *name;
#define CURL_NAME(name) #name,
static struct { CURL_FUNCTIONS(CURL_FIELD) } lib;
static const char *const names[] = {CURL_FUNCTIONS(CURL_NAME)};
// Debian's soname of libcurl (libcurl4).
static lazy_library libcurl = LAZY_LIBRARY("libcurl.so.4", names, lib);
LAZY_FUNCTIONS_MATCH(names, lib);
static pthread_once_t initialised = PTHREAD_ONCE_INIT;

static void initialise(void) { lib.curl_global_init(CURL_GLOBAL_DEFAULT); }

typedef struct {
  chttp_response *response;
  size_t limit;
  size_t capacity;
  int too_large;
} sink;

static size_t collect(char *data, size_t size, size_t count, void *context) {
  sink *target = context;
  size_t bytes = size * count;
  if (target->response->length + bytes > target->limit) {
    target->too_large = 1;
    return 0;
  }
  if (target->response->length + bytes > target->capacity) {
    size_t capacity = (target->capacity + bytes) * 2;
    uint8_t *grown = realloc(target->response->body, capacity);
    if (grown == NULL) return 0;
    target->response->body = grown;
    target->capacity = capacity;
  }
  memcpy(target->response->body + target->response->length, data, bytes);
  target->response->length += bytes;
  return bytes;
}

chttp_status chttp_get(const char *url, long timeout_ms, size_t max_bytes, chttp_response *out) {
  memset(out, 0, sizeof *out);
  const char *failure = lazy_load(&libcurl);
  if (failure != NULL) {
    snprintf(out->message, sizeof out->message,
             "libcurl cannot be loaded (%s): install it (apt-get install libcurl4)", failure);
    return CHTTP_FAILED;
  }
  pthread_once(&initialised, initialise);
  CURL *curl = lib.curl_easy_init();
  if (curl == NULL) {
    snprintf(out->message, sizeof out->message, "libcurl could not start");
    return CHTTP_FAILED;
  }
  sink target = {out, max_bytes, 0, 0};
  lib.curl_easy_setopt(curl, CURLOPT_URL, url);
  lib.curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  lib.curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  lib.curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  lib.curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  lib.curl_easy_setopt(curl, CURLOPT_USERAGENT, "circdesk (library circulation desk)");
  lib.curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
  lib.curl_easy_setopt(curl, CURLOPT_WRITEDATA, &target);
  CURLcode result = lib.curl_easy_perform(curl);
  lib.curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->code);
  lib.curl_easy_cleanup(curl);
  if (result == CURLE_OK) return CHTTP_OK;
  snprintf(out->message, sizeof out->message, "%s", lib.curl_easy_strerror(result));
  if (target.too_large) return CHTTP_TOO_LARGE;
  switch (result) {
    case CURLE_OPERATION_TIMEDOUT: return CHTTP_TIMEOUT;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return CHTTP_CANNOT_CONNECT;
    default: return CHTTP_FAILED;
  }
}

void chttp_free(chttp_response *response) {
  free(response->body);
  response->body = NULL;
  response->length = 0;
}
