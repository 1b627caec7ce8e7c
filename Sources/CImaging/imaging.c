#include "cimaging.h"

#include <errno.h>
#include <lazy_library.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
// libjpeg's headers need stdio first.
#include <jerror.h>
#include <jpeglib.h>
#include <math.h>
#include <png.h>
#include <qrencode.h>
#include <string.h>
#include <sys/stat.h>
#include <zbar.h>

static void say(char *message, size_t size, const char *text) {
  if (message != NULL && size > 0) {
    snprintf(message, size, "%s", text);
  }
}

/* ---------- PNG ---------- */

/// Reads a PNG in `format` (PNG_FORMAT_GRAY or PNG_FORMAT_RGB), transparency composited onto
/// white: a code on a transparent background scans.
static cimg_status read_png(const char *path, long max_pixels, png_uint_32 format, uint8_t **out, int *width,
                            int *height, char *message, size_t size) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) {
    say(message, size, image.message);
    png_image_free(&image);
    return CIMG_CORRUPT;
  }
  if (image.width == 0 || image.height == 0) {
    png_image_free(&image);
    return CIMG_NO_PIXELS;
  }
  if ((long)image.width * (long)image.height > max_pixels) {
    png_image_free(&image);
    return CIMG_TOO_LARGE;
  }
  image.format = format;
  uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
  if (pixels == NULL) {
    png_image_free(&image);
    return CIMG_NO_MEMORY;
  }
  png_color white = {255, 255, 255};
  if (!png_image_finish_read(&image, &white, pixels, 0, NULL)) {
    say(message, size, image.message);
    int truncated = strstr(image.message, "EOF") != NULL || strstr(image.message, "end") != NULL ||
                    strstr(image.message, "Read Error") != NULL || strstr(image.message, "short") != NULL;
    free(pixels);
    png_image_free(&image);
    return truncated ? CIMG_TRUNCATED : CIMG_CORRUPT;
  }
  *out = pixels;
  *width = (int)image.width;
  *height = (int)image.height;
  return CIMG_OK;
}

static cimg_status load_png(const char *path, long max_pixels, cimg_gray *out, char *message, size_t size) {
  return read_png(path, max_pixels, PNG_FORMAT_GRAY, &out->pixels, &out->width, &out->height, message, size);
}

/* ---------- JPEG ---------- */

typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf escape;
  int truncated;
  char message[JMSG_LENGTH_MAX];
} jpeg_failure;

static void jpeg_fail(j_common_ptr info) {
  jpeg_failure *failure = (jpeg_failure *)info->err;
  (*info->err->format_message)(info, failure->message);
  longjmp(failure->escape, 1);
}

static void jpeg_warn(j_common_ptr info, int level) {
  jpeg_failure *failure = (jpeg_failure *)info->err;
  if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) failure->truncated = 1;
}

static cimg_status load_jpeg(const char *path, long max_pixels, int shrink, cimg_gray *out, char *message,
                             size_t size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return CIMG_UNREADABLE;
  struct jpeg_decompress_struct info;
  jpeg_failure failure;
  memset(&failure, 0, sizeof failure);
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = jpeg_fail;
  failure.manager.emit_message = jpeg_warn;
  uint8_t *pixels = NULL;
  JSAMPLE *row = NULL;
  if (setjmp(failure.escape)) {
    say(message, size, failure.message);
    jpeg_destroy_decompress(&info);
    fclose(file);
    free(pixels);
    free(row);
    return CIMG_CORRUPT;
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file);
  jpeg_read_header(&info, TRUE);
  if (info.image_width == 0 || info.image_height == 0 ||
      (long)info.image_width * (long)info.image_height > max_pixels) {
    int none = info.image_width == 0 || info.image_height == 0;
    jpeg_destroy_decompress(&info);
    fclose(file);
    return none ? CIMG_NO_PIXELS : CIMG_TOO_LARGE;
  }
  int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
  info.out_color_space = cmyk ? JCS_CMYK : JCS_GRAYSCALE;
  if (shrink > 1) {
    info.scale_num = 1;
    info.scale_denom = (unsigned)(shrink > 8 ? 8 : shrink);
  }
  jpeg_start_decompress(&info);
  size_t width = info.output_width;
  size_t height = info.output_height;
  pixels = malloc(width * height);
  row = malloc(width * (size_t)info.output_components);
  if (pixels == NULL || row == NULL) {
    jpeg_destroy_decompress(&info);
    fclose(file);
    free(pixels);
    free(row);
    return CIMG_NO_MEMORY;
  }
  // Adobe writes CMYK inverted; a plain CMYK JPEG stores ink amounts.
  int inverted = info.saw_Adobe_marker;
  while (info.output_scanline < info.output_height) {
    size_t y = info.output_scanline;
    JSAMPROW rows[1] = {row};
    jpeg_read_scanlines(&info, rows, 1);
    for (size_t x = 0; x < width; x++) {
      if (!cmyk) {
        pixels[y * width + x] = row[x];
        continue;
      }
      int c = row[x * 4], m = row[x * 4 + 1], yellow = row[x * 4 + 2], k = row[x * 4 + 3];
      if (!inverted) {
        c = 255 - c;
        m = 255 - m;
        yellow = 255 - yellow;
        k = 255 - k;
      }
      int red = c * k / 255, green = m * k / 255, blue = yellow * k / 255;
      pixels[y * width + x] = (uint8_t)((299 * red + 587 * green + 114 * blue) / 1000);
    }
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  fclose(file);
  free(row);
  if (failure.truncated) {
    free(pixels);
    say(message, size, "Premature end of JPEG file");
    return CIMG_TRUNCATED;
  }
  out->width = (int)width;
  out->height = (int)height;
  out->pixels = pixels;
  return CIMG_OK;
}

cimg_status cimg_load(const char *path, long max_pixels, cimg_gray *out, char *message, size_t message_size) {
  return cimg_load_shrunk(path, max_pixels, 1, out, message, message_size);
}

cimg_status cimg_load_shrunk(const char *path, long max_pixels, int shrink, cimg_gray *out, char *message,
                             size_t message_size) {
  memset(out, 0, sizeof *out);
  say(message, message_size, "");
  struct stat info;
  if (stat(path, &info) != 0) return errno == ENOENT || errno == ENOTDIR ? CIMG_MISSING : CIMG_UNREADABLE;
  if (!S_ISREG(info.st_mode)) return CIMG_UNREADABLE;
  if (info.st_size == 0) return CIMG_EMPTY;
  FILE *file = fopen(path, "rb");
  if (file == NULL) return CIMG_UNREADABLE;
  uint8_t magic[24] = {0};
  size_t got = fread(magic, 1, sizeof magic, file);
  fclose(file);
  static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (got >= 8 && memcmp(magic, png_signature, 8) == 0) {
    // The size stands in the IHDR chunk right after the signature: refuse a bomb before libpng
    // reads any further.
    if (got == 24 && memcmp(magic + 12, "IHDR", 4) == 0) {
      unsigned long width = ((unsigned long)magic[16] << 24) | ((unsigned long)magic[17] << 16) |
                            ((unsigned long)magic[18] << 8) | magic[19];
      unsigned long height = ((unsigned long)magic[20] << 24) | ((unsigned long)magic[21] << 16) |
                             ((unsigned long)magic[22] << 8) | magic[23];
      if (width == 0 || height == 0) return CIMG_NO_PIXELS;
      if ((double)width * (double)height > (double)max_pixels) return CIMG_TOO_LARGE;
    }
    cimg_status status = load_png(path, max_pixels, out, message, message_size);
    for (int factor = shrink; status == CIMG_OK && factor > 1 && out->width > 1 && out->height > 1; factor /= 2) {
      cimg_gray half = cimg_half(out);
      cimg_free(out);
      *out = half;
      if (half.pixels == NULL) return CIMG_NO_MEMORY;
    }
    return status;
  }
  if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
    return load_jpeg(path, max_pixels, shrink, out, message, message_size);
  }
  return CIMG_NOT_AN_IMAGE;
}

void cimg_free(cimg_gray *image) {
  free(image->pixels);
  image->pixels = NULL;
}

cimg_gray cimg_half(const cimg_gray *image) {
  cimg_gray half = {image->width / 2, image->height / 2, NULL};
  if (half.width == 0 || half.height == 0) return half;
  half.pixels = malloc((size_t)half.width * half.height);
  if (half.pixels == NULL) return half;
  for (int y = 0; y < half.height; y++) {
    const uint8_t *a = image->pixels + (size_t)(2 * y) * image->width;
    const uint8_t *b = a + image->width;
    uint8_t *target = half.pixels + (size_t)y * half.width;
    for (int x = 0; x < half.width; x++) {
      target[x] = (uint8_t)((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + 2) / 4);
    }
  }
  return half;
}

/* ---------- colour channels and contrast ---------- */

static int channels_alloc(cimg_gray channels[3], int width, int height) {
  for (int c = 0; c < 3; c++) {
    channels[c].width = width;
    channels[c].height = height;
    channels[c].pixels = malloc((size_t)width * height);
    if (channels[c].pixels == NULL) return 0;
  }
  return 1;
}

static void channels_free(cimg_gray channels[3]) {
  for (int c = 0; c < 3; c++) cimg_free(&channels[c]);
}

static cimg_status split_rgb(const uint8_t *rgb, int width, int height, cimg_gray channels[3], int *colour) {
  if (!channels_alloc(channels, width, height)) {
    channels_free(channels);
    return CIMG_NO_MEMORY;
  }
  size_t count = (size_t)width * height;
  int differs = 0;
  for (size_t i = 0; i < count; i++) {
    uint8_t r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
    channels[0].pixels[i] = r;
    channels[1].pixels[i] = g;
    channels[2].pixels[i] = b;
    differs |= (r != g) | (g != b);
  }
  *colour = differs;
  return CIMG_OK;
}

static cimg_status channels_png(const char *path, long max_pixels, cimg_gray channels[3], int *colour) {
  uint8_t *rgb = NULL;
  int width = 0, height = 0;
  cimg_status status = read_png(path, max_pixels, PNG_FORMAT_RGB, &rgb, &width, &height, NULL, 0);
  if (status != CIMG_OK) return status;
  status = split_rgb(rgb, width, height, channels, colour);
  free(rgb);
  return status;
}

static cimg_status channels_jpeg(const char *path, long max_pixels, int shrink, cimg_gray channels[3], int *colour) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return CIMG_UNREADABLE;
  struct jpeg_decompress_struct info;
  jpeg_failure failure;
  memset(&failure, 0, sizeof failure);
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = jpeg_fail;
  failure.manager.emit_message = jpeg_warn;
  uint8_t *rgb = NULL;
  if (setjmp(failure.escape)) {
    jpeg_destroy_decompress(&info);
    fclose(file);
    free(rgb);
    return CIMG_CORRUPT;
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file);
  jpeg_read_header(&info, TRUE);
  if (info.num_components != 3 || info.image_width == 0 || info.image_height == 0 ||
      (long)info.image_width * (long)info.image_height > max_pixels) {
    // Grey and CMYK photos have their one conversion already.
    jpeg_destroy_decompress(&info);
    fclose(file);
    *colour = 0;
    return CIMG_OK;
  }
  info.out_color_space = JCS_RGB;
  // libjpeg decodes at 1/2, 1/4 or 1/8 of the size for little more than the cost of the smaller.
  if (shrink > 1) {
    info.scale_num = 1;
    info.scale_denom = (unsigned)(shrink > 8 ? 8 : shrink);
  }
  jpeg_start_decompress(&info);
  size_t width = info.output_width, height = info.output_height;
  rgb = malloc(width * height * 3);
  if (rgb == NULL) {
    jpeg_destroy_decompress(&info);
    fclose(file);
    return CIMG_NO_MEMORY;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW rows[1] = {rgb + (size_t)info.output_scanline * width * 3};
    jpeg_read_scanlines(&info, rows, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  fclose(file);
  cimg_status status = split_rgb(rgb, (int)width, (int)height, channels, colour);
  free(rgb);
  return status;
}

cimg_status cimg_load_channels(const char *path, long max_pixels, int shrink, cimg_gray channels[3], int *colour) {
  memset(channels, 0, 3 * sizeof channels[0]);
  *colour = 0;
  FILE *file = fopen(path, "rb");
  if (file == NULL) return CIMG_UNREADABLE;
  uint8_t magic[8] = {0};
  size_t got = fread(magic, 1, sizeof magic, file);
  fclose(file);
  static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (got == 8 && memcmp(magic, png_signature, 8) == 0) return channels_png(path, max_pixels, channels, colour);
  if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
    return channels_jpeg(path, max_pixels, shrink, channels, colour);
  }
  return CIMG_NOT_AN_IMAGE;
}

double cimg_spread(const cimg_gray *image) {
  size_t count = (size_t)image->width * image->height;
  if (count == 0 || image->pixels == NULL) return 0;
  double sum = 0, squares = 0;
  for (size_t i = 0; i < count; i++) {
    double level = image->pixels[i];
    sum += level;
    squares += level * level;
  }
  double mean = sum / (double)count;
  double variance = squares / (double)count - mean * mean;
  return variance > 0 ? sqrt(variance) : 0;
}

cimg_gray cimg_stretch(const cimg_gray *image, int block) {
  cimg_gray result = {image->width, image->height, NULL};
  if (block < 2 || image->width == 0 || image->height == 0) return result;
  int across = (image->width + block - 1) / block, down = (image->height + block - 1) / block;
  uint8_t *low = malloc((size_t)across * down), *high = malloc((size_t)across * down);
  result.pixels = malloc((size_t)image->width * image->height);
  if (low == NULL || high == NULL || result.pixels == NULL) {
    free(low);
    free(high);
    free(result.pixels);
    result.pixels = NULL;
    return result;
  }
  for (int by = 0; by < down; by++) {
    for (int bx = 0; bx < across; bx++) {
      uint8_t darkest = 255, lightest = 0;
      for (int y = by * block; y < (by + 1) * block && y < image->height; y++) {
        const uint8_t *row = image->pixels + (size_t)y * image->width;
        for (int x = bx * block; x < (bx + 1) * block && x < image->width; x++) {
          if (row[x] < darkest) darkest = row[x];
          if (row[x] > lightest) lightest = row[x];
        }
      }
      low[by * across + bx] = darkest;
      high[by * across + bx] = lightest;
    }
  }
  for (int y = 0; y < image->height; y++) {
    for (int x = 0; x < image->width; x++) {
      // The range of the 3×3 blocks around: smooth across block edges.
      int darkest = 255, lightest = 0;
      int bx = x / block, by = y / block;
      for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
          int nx = bx + dx, ny = by + dy;
          if (nx < 0 || ny < 0 || nx >= across || ny >= down) continue;
          if (low[ny * across + nx] < darkest) darkest = low[ny * across + nx];
          if (high[ny * across + nx] > lightest) lightest = high[ny * across + nx];
        }
      }
      uint8_t level = image->pixels[(size_t)y * image->width + x];
      int range = lightest - darkest;
      // A flat region (no code in it) stays as it is rather than amplifying its noise.
      result.pixels[(size_t)y * image->width + x] =
          range < 24 ? level : (uint8_t)((level - darkest) * 255 / range);
    }
  }
  free(low);
  free(high);
  return result;
}

/* One pass of a box blur along rows (`step` 1) or columns (`step` the width), edges repeated. */
static void box_pass(const uint16_t *in, uint16_t *out, int width, int height, int radius, int along_rows) {
  int lines = along_rows ? height : width, length = along_rows ? width : height;
  size_t step = along_rows ? 1 : (size_t)width, next_line = along_rows ? (size_t)width : 1;
  for (int line = 0; line < lines; line++) {
    const uint16_t *source = in + (size_t)line * next_line;
    uint16_t *target = out + (size_t)line * next_line;
    long sum = 0;
    for (int i = -radius; i <= radius; i++) sum += source[(size_t)(i < 0 ? 0 : i >= length ? length - 1 : i) * step];
    for (int i = 0; i < length; i++) {
      target[(size_t)i * step] = (uint16_t)(sum / (2 * radius + 1));
      int leaving = i - radius, entering = i + radius + 1;
      sum -= source[(size_t)(leaving < 0 ? 0 : leaving) * step];
      sum += source[(size_t)(entering >= length ? length - 1 : entering) * step];
    }
  }
}

cimg_gray cimg_sharpen(const cimg_gray *image, int radius, int amount_percent) {
  cimg_gray result = {image->width, image->height, NULL};
  size_t count = (size_t)image->width * image->height;
  if (radius < 1 || count == 0 || image->pixels == NULL) return result;
  uint16_t *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b);
  result.pixels = malloc(count);
  if (a == NULL || b == NULL || result.pixels == NULL) {
    free(a);
    free(b);
    free(result.pixels);
    result.pixels = NULL;
    return result;
  }
  for (size_t i = 0; i < count; i++) a[i] = image->pixels[i];
  // Three box blurs each way are close to a Gaussian.
  for (int pass = 0; pass < 3; pass++) {
    box_pass(a, b, image->width, image->height, radius, 1);
    box_pass(b, a, image->width, image->height, radius, 0);
  }
  for (size_t i = 0; i < count; i++) {
    int level = image->pixels[i] + (image->pixels[i] - (int)a[i]) * amount_percent / 100;
    result.pixels[i] = (uint8_t)(level < 0 ? 0 : level > 255 ? 255 : level);
  }
  free(a);
  free(b);
  return result;
}

/* ---------- zbar and qrencode, loaded when first used (lazy_library.h) ---------- */

#define ZBAR_FUNCTIONS(X)                                                                         \
  X(zbar_image_scanner_create) X(zbar_image_scanner_set_config) X(zbar_image_create)              \
  X(zbar_image_set_format) X(zbar_image_set_size) X(zbar_image_set_data) X(zbar_scan_image)       \
  X(zbar_image_first_symbol) X(zbar_get_symbol_name) X(zbar_symbol_get_type)                      \
  X(zbar_symbol_get_data_length) X(zbar_symbol_get_data) X(zbar_symbol_get_loc_size)              \
  X(zbar_symbol_get_loc_x) X(zbar_symbol_get_loc_y) X(zbar_symbol_get_quality)                    \
  X(zbar_symbol_next) X(zbar_image_destroy) X(zbar_image_scanner_destroy)                        \
  X(zbar_scanner_create) X(zbar_scanner_destroy) X(zbar_scan_y) X(zbar_scanner_flush)             \
  X(zbar_scanner_get_width) X(zbar_scanner_get_color)

#define QRENCODE_FUNCTIONS(X)                                                                     \
  X(QRcode_encodeData) X(QRcode_free)

#define LIBRARY_FIELD(name) __typeof__(name) *name;
#define LIBRARY_NAME(name) #name,
static struct { ZBAR_FUNCTIONS(LIBRARY_FIELD) } zbar;
static struct { QRENCODE_FUNCTIONS(LIBRARY_FIELD) } qrencode;
static const char *const zbar_names[] = {ZBAR_FUNCTIONS(LIBRARY_NAME)};
static const char *const qrencode_names[] = {QRENCODE_FUNCTIONS(LIBRARY_NAME)};
// Debian's sonames (libzbar0, libqrencode4).
static lazy_library zbar_library = LAZY_LIBRARY("libzbar.so.0", zbar_names, zbar);
static lazy_library qrencode_library = LAZY_LIBRARY("libqrencode.so.4", qrencode_names, qrencode);
LAZY_FUNCTIONS_MATCH(zbar_names, zbar);
LAZY_FUNCTIONS_MATCH(qrencode_names, qrencode);

const char *cimg_zbar_missing(void) { return lazy_load(&zbar_library); }

const char *cimg_qrencode_missing(void) { return lazy_load(&qrencode_library); }

/* ---------- zbar ---------- */

cimg_symbols cimg_scan(const cimg_gray *image, int density) {
  cimg_symbols result = {NULL, 0};
  if (cimg_zbar_missing() != NULL) return result;
  zbar_image_scanner_t *scanner = zbar.zbar_image_scanner_create();
  zbar.zbar_image_scanner_set_config(scanner, 0, ZBAR_CFG_ENABLE, 0);
  const zbar_symbol_type_t wanted[] = {ZBAR_EAN13, ZBAR_EAN8,   ZBAR_EAN2,  ZBAR_EAN5, ZBAR_UPCA,    ZBAR_UPCE,
                                       ZBAR_ISBN10, ZBAR_ISBN13, ZBAR_CODE128, ZBAR_CODE39, ZBAR_CODABAR, ZBAR_I25,
                                       ZBAR_QRCODE};
  for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
    zbar.zbar_image_scanner_set_config(scanner, wanted[i], ZBAR_CFG_ENABLE, 1);
  }
  zbar.zbar_image_scanner_set_config(scanner, 0, ZBAR_CFG_X_DENSITY, density);
  zbar.zbar_image_scanner_set_config(scanner, 0, ZBAR_CFG_Y_DENSITY, density);
  // The raw bytes of a QR code: zbar's own charset guess garbles short Cyrillic text.
  zbar.zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1);
  zbar_image_t *frame = zbar.zbar_image_create();
  zbar.zbar_image_set_format(frame, zbar_fourcc('Y', '8', '0', '0'));
  zbar.zbar_image_set_size(frame, (unsigned)image->width, (unsigned)image->height);
  zbar.zbar_image_set_data(frame, image->pixels, (unsigned long)image->width * image->height, NULL);
  int found = zbar.zbar_scan_image(scanner, frame);
  if (found > 0) {
    result.symbols = calloc((size_t)found, sizeof(cimg_symbol));
    const zbar_symbol_t *symbol = zbar.zbar_image_first_symbol(frame);
    while (symbol != NULL && result.symbols != NULL && result.count < found) {
      cimg_symbol *target = &result.symbols[result.count];
      snprintf(target->type, sizeof target->type, "%s", zbar.zbar_get_symbol_name(zbar.zbar_symbol_get_type(symbol)));
      size_t length = zbar.zbar_symbol_get_data_length(symbol);
      target->data = malloc(length + 1);
      if (target->data != NULL) {
        memcpy(target->data, zbar.zbar_symbol_get_data(symbol), length);
        target->data[length] = 0;
        target->length = length;
      }
      unsigned points = zbar.zbar_symbol_get_loc_size(symbol);
      target->left = target->top = 1 << 30;
      target->right = target->bottom = -1;
      for (unsigned p = 0; p < points; p++) {
        int x = zbar.zbar_symbol_get_loc_x(symbol, p), y = zbar.zbar_symbol_get_loc_y(symbol, p);
        if (x < target->left) target->left = x;
        if (x > target->right) target->right = x;
        if (y < target->top) target->top = y;
        if (y > target->bottom) target->bottom = y;
      }
      if (points == 0) target->left = target->top = target->right = target->bottom = 0;
      target->quality = zbar.zbar_symbol_get_quality(symbol);
      result.count++;
      symbol = zbar.zbar_symbol_next(symbol);
    }
  }
  zbar.zbar_image_destroy(frame);
  zbar.zbar_image_scanner_destroy(scanner);
  return result;
}

void cimg_free_symbols(cimg_symbols *symbols) {
  for (int i = 0; i < symbols->count; i++) free(symbols->symbols[i].data);
  free(symbols->symbols);
  symbols->symbols = NULL;
  symbols->count = 0;
}

/* ---------- writing ---------- */

int cimg_write_png(const char *path, const cimg_gray *image, int dpi, char *message, size_t message_size) {
  FILE *file = fopen(path, "wb");
  if (file == NULL) {
    say(message, message_size, strerror(errno));
    return -1;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png == NULL ? NULL : png_create_info_struct(png);
  if (png == NULL || info == NULL || setjmp(png_jmpbuf(png))) {
    say(message, message_size, "the PNG could not be written");
    png_destroy_write_struct(&png, &info);
    fclose(file);
    return -1;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, (png_uint_32)image->width, (png_uint_32)image->height, 8, PNG_COLOR_TYPE_GRAY,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_uint_32 per_metre = (png_uint_32)(dpi / 0.0254 + 0.5);
  png_set_pHYs(png, info, per_metre, per_metre, PNG_RESOLUTION_METER);
  png_write_info(png, info);
  for (int y = 0; y < image->height; y++) png_write_row(png, image->pixels + (size_t)y * image->width);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  if (fclose(file) != 0) {
    say(message, message_size, strerror(errno));
    return -1;
  }
  return 0;
}

int cimg_qr(const uint8_t *data, size_t length, int scale, cimg_gray *out) {
  memset(out, 0, sizeof *out);
  if (cimg_qrencode_missing() != NULL) return -1;
  QRcode *code = qrencode.QRcode_encodeData((int)length, data, 0, QR_ECLEVEL_M);
  if (code == NULL) return -1;
  int quiet = 4;
  int modules = code->width + 2 * quiet;
  int side = modules * scale;
  out->pixels = malloc((size_t)side * side);
  if (out->pixels == NULL) {
    qrencode.QRcode_free(code);
    return -1;
  }
  memset(out->pixels, 255, (size_t)side * side);
  for (int y = 0; y < code->width; y++) {
    for (int x = 0; x < code->width; x++) {
      if ((code->data[y * code->width + x] & 1) == 0) continue;
      for (int dy = 0; dy < scale; dy++) {
        memset(out->pixels + (size_t)((y + quiet) * scale + dy) * side + (size_t)(x + quiet) * scale, 0, (size_t)scale);
      }
    }
  }
  out->width = out->height = side;
  qrencode.QRcode_free(code);
  return 0;
}

int cimg_line_elements(const cimg_gray *image, int line, int vertical, int backwards, uint32_t *widths,
                       uint8_t *bars, int capacity) {
  if (cimg_zbar_missing() != NULL) return -1;
  int length = vertical ? image->height : image->width;
  if (line < 0 || line >= (vertical ? image->width : image->height)) return 0;
  zbar_scanner_t *scanner = zbar.zbar_scanner_create(NULL);
  int count = 0;
  for (int i = 0; i <= length + 1 && count < capacity; i++) {
    // The line, then its ends flushed: zbar's own scanner finds the edges, between pixels.
    zbar_symbol_type_t edge;
    if (i < length) {
      int at = backwards ? length - 1 - i : i;
      const uint8_t *pixel = vertical ? image->pixels + (size_t)at * image->width + line
                                      : image->pixels + (size_t)line * image->width + at;
      edge = zbar.zbar_scan_y(scanner, *pixel);
    } else {
      edge = zbar.zbar_scanner_flush(scanner);
    }
    if (edge == ZBAR_NONE) continue;
    // The width is of the element an edge just closed; the colour zbar gives is of the one the
    // edge opened.
    widths[count] = zbar.zbar_scanner_get_width(scanner);
    bars[count] = zbar.zbar_scanner_get_color(scanner) == ZBAR_SPACE;
    count++;
  }
  zbar.zbar_scanner_destroy(scanner);
  return count;
}
