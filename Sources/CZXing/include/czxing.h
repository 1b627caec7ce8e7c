#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One symbol ZXing read: its format's name, its raw bytes, the box of its corners, and its text
/// as ZXing decoded it (UTF-8), with whether the symbol named its character set (an ECI).
typedef struct {
  char format[24];
  uint8_t *data;
  size_t length;
  int left, top, right, bottom;
  char *text;
  size_t text_length;
  int has_eci;
} czx_symbol;

/// Reads one symbol from 8-bit grey pixels (rows without padding), trying harder and rotated.
/// Returns 1 when a symbol was read (free it with `czx_free`), 0 when none. One symbol at a
/// time: ZXing 1.4 asked for several can abort the process on an internal assertion, and the
/// program runs this in a child process of its own all the same.
/// `global_binarizer`: ZXing's other way to black and white (one threshold a line or image,
/// not a local average), which reads some photos the default does not.
int czx_read(const uint8_t *pixels, int width, int height, int global_binarizer, czx_symbol *out);
void czx_free(czx_symbol *symbol);

#ifdef __cplusplus
}
#endif

#endif
