#ifndef CHTTP_H
#define CHTTP_H

#include <stddef.h>
#include <stdint.h>

// One HTTP GET through libcurl, with a time limit and a size limit.

typedef enum {
  CHTTP_OK = 0,
  CHTTP_TIMEOUT,
  CHTTP_CANNOT_CONNECT,
  CHTTP_TOO_LARGE,
  CHTTP_FAILED
} chttp_status;

typedef struct {
  long code;          // the HTTP status code
  uint8_t *body;
  size_t length;
  char message[256];  // libcurl's words when the request failed
} chttp_response;

chttp_status chttp_get(const char *url, long timeout_ms, size_t max_bytes, chttp_response *out);
void chttp_free(chttp_response *response);

#endif
