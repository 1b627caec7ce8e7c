#ifndef CIMAGING_H
#define CIMAGING_H

#include <stddef.h>
#include <stdint.h>

// Image files in and out, and barcode decoding, for the Swift scanning layer. libjpeg reports
// errors with longjmp, which Swift cannot take part in: that is why this lives in C.

/// Why an image could not be read.
typedef enum {
  CIMG_OK = 0,
  CIMG_MISSING,       // no such file
  CIMG_UNREADABLE,    // no permission, a folder, an I/O error
  CIMG_EMPTY,         // zero bytes
  CIMG_NO_PIXELS,     // an image of 0 columns or rows
  CIMG_NOT_AN_IMAGE,  // neither PNG nor JPEG
  CIMG_TRUNCATED,     // the file ends before the image does
  CIMG_CORRUPT,       // the decoder refused the data
  CIMG_TOO_LARGE,     // the dimensions are absurd (a decompression bomb)
  CIMG_NO_MEMORY
} cimg_status;

/// An 8-bit grey image, one byte a pixel, rows without padding.
typedef struct {
  int width;
  int height;
  uint8_t *pixels;
} cimg_gray;

/// Reads a PNG or JPEG file as 8-bit grey, transparency flattened onto white. `max_pixels`
/// refuses larger images before any pixel is decoded. `message` receives the decoder's words.
cimg_status cimg_load(const char *path, long max_pixels, cimg_gray *out, char *message, size_t message_size);

/// `cimg_load` at a fraction of the size (`shrink` 1, 2, 4 or 8): a JPEG decoded so by libjpeg,
/// which is several times faster than at full size; a PNG halved after loading.
cimg_status cimg_load_shrunk(const char *path, long max_pixels, int shrink, cimg_gray *out, char *message,
                             size_t message_size);
void cimg_free(cimg_gray *image);

/// Halves the image by averaging 2×2 boxes (for large frames, which scan faster smaller).
cimg_gray cimg_half(const cimg_gray *image);

/// Reads a PNG or JPEG file's red, green and blue as three grey images (transparency flattened
/// onto white), for a colour photo whose grey conversion hides its code. Returns CIMG_OK and
/// sets `colour` to 0 when the image has no colour (all three would be the same).
/// `shrink` (1, 2, 4 or 8): a JPEG is decoded at that fraction of its size (a PNG at its own).
cimg_status cimg_load_channels(const char *path, long max_pixels, int shrink, cimg_gray channels[3], int *colour);

/// How spread an image's levels are: the standard deviation, in levels.
double cimg_spread(const cimg_gray *image);

/// A copy with its contrast stretched block by block (`block` pixels square): each block's
/// darkest level becomes black and its lightest white, blended with its neighbours' so that
/// block edges do not show. For glare and faint print.
cimg_gray cimg_stretch(const cimg_gray *image, int block);

/// A copy sharpened by an unsharp mask: each level pushed away from its neighbourhood's (a
/// near-Gaussian blur of `radius`) by `amount_percent`. For the soft bars of a camera out of focus.
cimg_gray cimg_sharpen(const cimg_gray *image, int radius, int amount_percent);

/// One decoded symbol: its type name, the raw bytes, and the bounding box of its points.
typedef struct {
  char type[24];
  uint8_t *data;
  size_t length;
  int left, top, right, bottom;
  int quality;
} cimg_symbol;

typedef struct {
  cimg_symbol *symbols;
  int count;
} cimg_symbols;

/// NULL when zbar is loaded (at the first call), or why it cannot be: the reason, for a message.
const char *cimg_zbar_missing(void);

/// NULL when qrencode is loaded (at the first call), or why it cannot be.
const char *cimg_qrencode_missing(void);

/// Decodes every symbol a library meets (none when zbar cannot be loaded: `cimg_zbar_missing`): EAN-13 and EAN-8 (ISBNs and their 2- and 5-digit
/// add-ons), UPC, Code 128, Code 39, Codabar, Interleaved 2 of 5 and QR (binary mode: the bytes
/// as they are, for the caller to decode). `density` scans every n-th line each way.
cimg_symbols cimg_scan(const cimg_gray *image, int density);
void cimg_free_symbols(cimg_symbols *symbols);

/// The bars and spaces zbar's scanner finds along one line of the image (a row, or a column when
/// `vertical`; from its far end when `backwards`): each element's width in 32nds of a pixel and
/// whether it is a bar, up to `capacity`. Returns how many, or -1 when zbar cannot be loaded. For
/// the desk's own reading of Code 128, which keeps what zbar's drops.
int cimg_line_elements(const cimg_gray *image, int line, int vertical, int backwards, uint32_t *widths,
                       uint8_t *bars, int capacity);

/// Writes an 8-bit grey PNG with the given resolution in dots per inch. Returns 0 on success.
int cimg_write_png(const char *path, const cimg_gray *image, int dpi, char *message, size_t message_size);

/// Encodes text as a QR code (error correction M, byte mode) into a grey image with `scale`
/// pixels a module and a 4-module quiet zone. Returns 0 on success (-1 too when qrencode cannot be
/// loaded: `cimg_qrencode_missing`).
int cimg_qr(const uint8_t *data, size_t length, int scale, cimg_gray *out);

#endif
