#ifndef CARGON2_H
#define CARGON2_H

#include <stddef.h>

// Passwords of the self-check kiosks' accounts, as Argon2id hashes in the library's own encoded
// form ("$argon2id$v=19$m=…,t=…,p=1$salt$hash"): never kept as text.

// Hashes `password` with a fresh random salt into `encoded` (`capacity` bytes). 0 when done;
// otherwise `message` (256 bytes) says why.
int cargon2_hash(const char *password, size_t length, char *encoded, size_t capacity, char *message);

// 1 when `password` is the one `encoded` was made from, 0 when not, -1 when it cannot be told
// (the library missing, the encoded form broken): `message` then says why.
int cargon2_verify(const char *encoded, const char *password, size_t length, char *message);

#endif
