#include "czxing.h"

// ZXing 1.4 gives a result's text as UTF-8 only so asked.
#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

int czx_read(const uint8_t *pixels, int width, int height, int global_binarizer, czx_symbol *out) {
  std::memset(out, 0, sizeof *out);
  if (pixels == nullptr || width <= 0 || height <= 0) return 0;
  ZXing::DecodeHints hints;
  hints.setTryHarder(true);
  hints.setTryRotate(true);
  if (global_binarizer) hints.setBinarizer(ZXing::Binarizer::GlobalHistogram);
  // UPC-E is left out: a tilted or blurred EAN-13 gave a UPC-E of its digits, and books carry none.
  hints.setFormats(ZXing::BarcodeFormat::EAN8 | ZXing::BarcodeFormat::EAN13 | ZXing::BarcodeFormat::UPCA |
                   ZXing::BarcodeFormat::Code128 | ZXing::BarcodeFormat::Code39 | ZXing::BarcodeFormat::Codabar |
                   ZXing::BarcodeFormat::ITF | ZXing::BarcodeFormat::QRCode | ZXing::BarcodeFormat::DataMatrix |
                   ZXing::BarcodeFormat::Aztec);
  ZXing::ImageView image(pixels, width, height, ZXing::ImageFormat::Lum);
  ZXing::Result result = ZXing::ReadBarcode(image, hints);
  if (!result.isValid()) return 0;
  const auto &bytes = result.bytes();
  out->data = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
  if (out->data == nullptr) return 0;
  std::memcpy(out->data, bytes.data(), bytes.size());
  out->length = bytes.size();
  std::strncpy(out->format, ZXing::ToString(result.format()), sizeof out->format - 1);
  const std::string text = result.text();
  out->text = static_cast<char *>(std::malloc(text.size() + 1));
  if (out->text != nullptr) {
    std::memcpy(out->text, text.data(), text.size());
    out->text[text.size()] = 0;
    out->text_length = text.size();
  }
  out->has_eci = result.hasECI() ? 1 : 0;
  const auto &position = result.position();
  int left = position[0].x, right = position[0].x, top = position[0].y, bottom = position[0].y;
  for (const auto &point : position) {
    left = std::min(left, point.x);
    right = std::max(right, point.x);
    top = std::min(top, point.y);
    bottom = std::max(bottom, point.y);
  }
  out->left = left;
  out->top = top;
  out->right = right;
  out->bottom = bottom;
  return 1;
}

void czx_free(czx_symbol *symbol) {
  std::free(symbol->data);
  symbol->data = nullptr;
  std::free(symbol->text);
  symbol->text = nullptr;
}
