#ifndef CTLS_H
#define CTLS_H

#include <stddef.h>
#include <sys/types.h>

// TLS for the SIP2 server's kiosks across a network, through OpenSSL (libssl, loaded when the
// server is started with a certificate: the desk never needs it).

typedef struct ctls_context ctls_context;
typedef struct ctls_session ctls_session;

// A server's context from a certificate chain and its private key (PEM files); NULL with
// `message` (256 bytes) saying why.
ctls_context *ctls_server(const char *certificate, const char *key, char *message);

// The TLS handshake on an accepted socket; NULL with `message` when it fails (the socket is left
// to the caller to close).
ctls_session *ctls_accept(ctls_context *context, int socket, char *message);

// Up to `capacity` bytes read: > 0 read, 0 the kiosk closed, < 0 an error.
ssize_t ctls_read(ctls_session *session, void *buffer, size_t capacity);
// All of `length` bytes written: 0 done, -1 failed.
int ctls_write(ctls_session *session, const void *bytes, size_t length);
// Bytes already decrypted and waiting: read them before waiting on the socket.
int ctls_pending(ctls_session *session);
void ctls_close(ctls_session *session);

#endif
