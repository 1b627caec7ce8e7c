#include "chttp.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t initialised = PTHREAD_ONCE_INIT;

static void initialise(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

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
  pthread_once(&initialised, initialise);
  memset(out, 0, sizeof *out);
  CURL *curl = curl_easy_init();
  if (curl == NULL) {
    snprintf(out->message, sizeof out->message, "libcurl could not start");
    return CHTTP_FAILED;
  }
  sink target = {out, max_bytes, 0, 0};
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "circdesk (library circulation desk)");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &target);
  CURLcode result = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->code);
  curl_easy_cleanup(curl);
  if (result == CURLE_OK) return CHTTP_OK;
  snprintf(out->message, sizeof out->message, "%s", curl_easy_strerror(result));
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
