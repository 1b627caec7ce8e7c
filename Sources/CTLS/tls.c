#include "ctls.h"

#include <lazy_library.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>

// libssl is loaded when the server starts with a certificate; libcrypto's error functions come
// with it (dlsym searches the libraries libssl needs).
#define SSL_FUNCTIONS(X)                                                                          \
  X(TLS_server_method) X(SSL_CTX_new) X(SSL_CTX_ctrl) X(SSL_CTX_use_certificate_chain_file)      \
  X(SSL_CTX_use_PrivateKey_file) X(SSL_CTX_check_private_key) X(SSL_new) X(SSL_set_fd)          \
  X(SSL_accept) X(SSL_read) X(SSL_write) X(SSL_pending) X(SSL_shutdown) X(SSL_free)              \
  X(SSL_get_error) X(ERR_get_error) X(ERR_error_string_n) X(ERR_clear_error)
#define SSL_FIELD(name) __typeof__(name) *name;
#define SSL_NAME(name) #name,
static struct { SSL_FUNCTIONS(SSL_FIELD) } lib;
static const char *const names[] = {SSL_FUNCTIONS(SSL_NAME)};
static lazy_library libssl = LAZY_LIBRARY("libssl.so.3", names, lib);
LAZY_FUNCTIONS_MATCH(names, lib);

struct ctls_context { SSL_CTX *context; };
struct ctls_session { SSL *ssl; };

// OpenSSL's own words for its last error, or `fallback`.
static void say(char *message, const char *what, const char *fallback) {
  unsigned long code = lib.ERR_get_error();
  char reason[200] = "";
  if (code != 0) lib.ERR_error_string_n(code, reason, sizeof reason);
  snprintf(message, 256, "%s: %s", what, code != 0 ? reason : fallback);
}

ctls_context *ctls_server(const char *certificate, const char *key, char *message) {
  const char *failure = lazy_load(&libssl);
  if (failure != NULL) {
    snprintf(message, 256, "OpenSSL cannot be loaded (%s): install it (apt-get install libssl3)", failure);
    return NULL;
  }
  SSL_CTX *context = lib.SSL_CTX_new(lib.TLS_server_method());
  if (context == NULL) {
    say(message, "no TLS context", "out of memory");
    return NULL;
  }
  // TLS 1.2 at least (SSL_CTX_set_min_proto_version, a macro of SSL_CTX_ctrl).
  lib.SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
  char what[200];
  if (lib.SSL_CTX_use_certificate_chain_file(context, certificate) != 1) {
    snprintf(what, sizeof what, "%s is not a PEM certificate", certificate);
    say(message, what, certificate);
  } else if (lib.SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) != 1) {
    snprintf(what, sizeof what, "%s is not a PEM private key, or not the certificate's", key);
    say(message, what, key);
  } else if (lib.SSL_CTX_check_private_key(context) != 1) {
    lib.ERR_clear_error();
    snprintf(message, 256, "the private key %s is not the key of the certificate %s", key, certificate);
  } else {
    ctls_context *made = malloc(sizeof *made);
    if (made != NULL) {
      made->context = context;
      return made;
    }
    snprintf(message, 256, "out of memory");
  }
  return NULL;
}

ctls_session *ctls_accept(ctls_context *context, int socket, char *message) {
  lib.ERR_clear_error();
  SSL *ssl = lib.SSL_new(context->context);
  if (ssl == NULL) {
    say(message, "no TLS session", "out of memory");
    return NULL;
  }
  lib.SSL_set_fd(ssl, socket);
  int result = lib.SSL_accept(ssl);
  if (result != 1) {
    say(message, "the TLS handshake failed", "the kiosk left or does not speak TLS");
    lib.SSL_free(ssl);
    return NULL;
  }
  ctls_session *session = malloc(sizeof *session);
  if (session == NULL) {
    lib.SSL_free(ssl);
    snprintf(message, 256, "out of memory");
    return NULL;
  }
  session->ssl = ssl;
  return session;
}

ssize_t ctls_read(ctls_session *session, void *buffer, size_t capacity) {
  int count = lib.SSL_read(session->ssl, buffer, capacity > 65536 ? 65536 : (int)capacity);
  if (count > 0) return count;
  int error = lib.SSL_get_error(session->ssl, count);
  return error == SSL_ERROR_ZERO_RETURN ? 0 : -1;
}

int ctls_write(ctls_session *session, const void *bytes, size_t length) {
  size_t written = 0;
  while (written < length) {
    size_t chunk = length - written > 65536 ? 65536 : length - written;
    int count = lib.SSL_write(session->ssl, (const char *)bytes + written, (int)chunk);
    if (count <= 0) return -1;
    written += (size_t)count;
  }
  return 0;
}

int ctls_pending(ctls_session *session) { return lib.SSL_pending(session->ssl); }

void ctls_close(ctls_session *session) {
  lib.SSL_shutdown(session->ssl);
  lib.SSL_free(session->ssl);
  free(session);
}
