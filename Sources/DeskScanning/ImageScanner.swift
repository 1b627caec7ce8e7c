import CImaging
import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// One code found in an image.
public struct ScannedSymbol: Hashable, Sendable {
  /// zbar's name of the symbology: `EAN-13`, `ISBN-13`, `QR-Code`, `EAN-5`, `CODE-128`…
  public var symbology: String
  /// The symbol's bytes exactly as decoded (they may hold NUL bytes).
  public var bytes: [UInt8]
  /// The bytes as text: UTF-8; Shift-JIS when they read as Japanese; else Windows-1251.
  public var text: String
  /// Where the symbol lies in the image, in pixels.
  public var box: Box
  /// The 2- or 5-digit add-on printed beside an EAN-13 or UPC (a book's price), if any.
  public var addOn: String?
  /// How many of zbar's scan lines read it (its quality); a decoder that checks a whole symbol
  /// (ZXing) counts as many.
  var lines = Int.max
  /// True where the symbol named its character set (an ECI), which its text is read in.
  var namedCharacterSet = false

  public struct Box: Hashable, Sendable {
    public var left, top, right, bottom: Int

    public init(left: Int, top: Int, right: Int, bottom: Int) {
      (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
    }
  }

  public init(symbology: String, bytes: [UInt8], box: Box) {
    self.symbology = symbology
    self.bytes = bytes
    text = symbology == "CODE-128" ? SymbolText.latin1(bytes) : SymbolText.decode(bytes)
    self.box = box
  }

  /// EAN-2 and EAN-5: they belong to the EAN-13 or UPC they are printed beside.
  public var isAddOn: Bool { symbology == "EAN-2" || symbology == "EAN-5" }

  /// The symbologies an add-on may sit beside.
  var takesAddOn: Bool { ScannedSymbol.productCodes.contains(symbology) }

  /// The EAN and UPC codes, which zbar names by what they hold (an ISBN-13 is an EAN-13).
  static let productCodes: Set<String> = ["EAN-13", "ISBN-13", "UPC-A", "UPC-E", "ISBN-10", "EAN-8"]

  /// Symbologies with no check of their own that a grille, a fence or a line of text can
  /// make: Code 39, Codabar, Interleaved 2 of 5.
  static let weakSymbologies: Set<String> = ["CODE-39", "Codabar", "I2/5"]

  /// True for an ISBN, beside which only a 5-digit add-on (the price) is printed.
  var isISBN: Bool {
    symbology == "ISBN-13" || symbology == "ISBN-10"
      || (symbology == "EAN-13" && (text.hasPrefix("978") || text.hasPrefix("979")))
  }

  /// True where the two lie on each other.
  /// The short product codes, which a part of a long one's bars can read as.
  static let shortProductCodes: Set<String> = ["UPC-E", "EAN-8"]

  /// True when `other` lies on this code's lines, no further from it than the code itself may
  /// run. zbar's box of a code read one way only is a line at one end: a code runs about one
  /// and a half times as wide as its bars are tall.
  func reaches(_ other: ScannedSymbol) -> Bool {
    let height = box.bottom - box.top
    let shared = min(box.bottom, other.box.bottom) - max(box.top, other.box.top)
    guard height > 0, shared * 2 >= height else { return false }
    let reach = max(box.right - box.left, height * 3 / 2)
    return other.box.left <= box.right + reach && other.box.right >= box.left - reach
  }

  func overlaps(_ other: ScannedSymbol) -> Bool {
    box.left <= other.box.right && other.box.left <= box.right && box.top <= other.box.bottom
      && other.box.top <= box.bottom
  }
}

/// Why an image file gave no codes to look at.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  case missing(String)
  case unreadable(String)
  case empty(String)
  /// An image of no pixels (0 columns or rows).
  case noPixels(String)
  case notAnImage(String)
  case truncated(String, detail: String)
  case corrupt(String, detail: String)
  case tooLarge(String, maximumPixels: Int)
  case outOfMemory(String)
  /// zbar, loaded at the first scan, is not installed.
  case decoderMissing(String)

  public var description: String {
    switch self {
    case .missing(let path): return "\(path): no such file; check the name and the folder"
    case .unreadable(let path): return "\(path) cannot be read (no permission, or not a regular file)"
    case .empty(let path): return "\(path) is empty (0 bytes); scan or save the picture again"
    case .noPixels(let path): return "\(path) is an empty image (0 pixels wide or high); scan or save the picture again"
    case .notAnImage(let path): return "\(path) is not a PNG or JPEG image"
    case .truncated(let path, let detail):
      return "\(path) is cut short (\(detail)); the file was not saved or copied completely"
    case .corrupt(let path, let detail): return "\(path) is a damaged image (\(detail))"
    case .tooLarge(let path, let maximum):
      return "\(path) is larger than \(maximum / 1_000_000) megapixels; scale it down before scanning"
    case .outOfMemory(let path): return "\(path) is too large to load into memory"
    case .decoderMissing(let reason):
      return "zbar, the barcode decoder, cannot be loaded (\(reason)): install it (apt-get install libzbar0)"
    }
  }
}

/// Reads PNG and JPEG files and decodes every barcode and QR code in them, in this process
/// (libpng, libjpeg and libzbar, loaded at the first scan; never by running a program).
public enum ImageScanner {
  /// Larger images are refused before any pixel is decoded.
  public static let maximumPixels = 40_000_000
  /// Frames larger than this are first scanned at half size, which is several times faster and
  /// finds the codes of an ordinary photograph; the full size is tried when that finds nothing.
  static let downscaleAbovePixels = 1_500_000

  /// `shortestWeakCode`: a Code 39, Codabar or Interleaved 2 of 5 read shorter than this is no
  /// code (the library's `scanner_min_length`, 4 by default).
  public static func scan(path: String, shortestWeakCode: Int = 4) throws(ImageError) -> [ScannedSymbol] {
    if let reason = cimg_zbar_missing() { throw .decoderMissing(String(cString: reason)) }
    var image = cimg_gray()
    var message = [CChar](repeating: 0, count: 256)
    let status = cimg_load(path, maximumPixels, &image, &message, message.count)
    let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch status {
    case CIMG_OK: break
    case CIMG_MISSING: throw .missing(path)
    case CIMG_EMPTY: throw .empty(path)
    case CIMG_NO_PIXELS: throw .noPixels(path)
    case CIMG_NOT_AN_IMAGE: throw .notAnImage(path)
    case CIMG_TRUNCATED: throw .truncated(path, detail: detail)
    case CIMG_CORRUPT: throw .corrupt(path, detail: detail)
    case CIMG_TOO_LARGE: throw .tooLarge(path, maximumPixels: maximumPixels)
    case CIMG_NO_MEMORY: throw .outOfMemory(path)
    default: throw .unreadable(path)
    }
    defer { cimg_free(&image) }
    let small = Int(image.width) * Int(image.height) <= upscaleUpToPixels
    let found = oneReadPerCode(
      zbarPasses(path: path, image: &image, small: small, shortestWeakCode: shortestWeakCode), image: image)
    let second = SecondRead(path: path)
    let latin1 = withLatin1Code128(found, second: second, small: small) { symbol in
      ownCode128(in: &image, at: symbol.box, read: symbol.bytes)
    }
    return withNamedCharacterSets(latin1, second: second)
  }

  /// zbar's passes, then the second decoder where they find nothing.
  private static func zbarPasses(path: String, image: inout cimg_gray, small: Bool, shortestWeakCode: Int)
    -> [ScannedSymbol]
  {
    // Each pass until one finds a code: an add-on alone (a stray price) does not stop the search.
    if Int(image.width) * Int(image.height) > downscaleAbovePixels {
      return largePhotoPasses(path: path, image: &image, shortestWeakCode: shortestWeakCode)
    }
    let found = symbols(in: &image, scale: 1, density: 2, shortestWeakCode: shortestWeakCode)
    if found.contains(where: { !$0.isAddOn }) { return attachingAddOns(found) }
    // Nothing at every second line: a noisy or faint photo may still give a code at every line.
    let everyLine = symbols(in: &image, scale: 1, density: 1, shortestWeakCode: shortestWeakCode)
    if everyLine.contains(where: { !$0.isAddOn }) { return attachingAddOns(everyLine) }
    if let found = otherGreys(of: path, luma: &image, shortestWeakCode: shortestWeakCode) {
      return attachingAddOns(found)
    }
    // The second decoder, in a process of its own, where zbar finds nothing useful: as it reads
    // by default, then with its other binarizer, then a small picture at twice its size.
    var retries: [[String]] = [[], ["--global"]]
    if small { retries.append(["--scale", "2"]) }
    for options in retries {
      let second = believable(SecondDecoder.decode(path: path, options: options), shortestWeakCode: shortestWeakCode)
      if !second.isEmpty { return attachingAddOns(second) }
    }
    guard small else { return attachingAddOns(everyLine) }
    // Last, a soft picture (a camera out of focus) sharpened: by zbar, then by ZXing as it is and
    // at twice its size. Of ZXing's 404 test photos, this read 5 more, with no code read where
    // there is none in its 25 false-positive photos.
    var sharpened = cimg_sharpen(&image, 2, 150)
    defer { cimg_free(&sharpened) }
    if sharpened.pixels != nil {
      let found = symbols(in: &sharpened, scale: 1, density: 1, shortestWeakCode: shortestWeakCode)
      if found.contains(where: { !$0.isAddOn }) {
        let agreed = readAgain(found, sharpening: &image, shortestWeakCode: shortestWeakCode)
        if agreed.contains(where: { !$0.isAddOn }) { return attachingAddOns(agreed) }
      }
    }
    for options in [["--sharpen"], ["--sharpen", "--scale", "2"]] {
      let second = believable(SecondDecoder.decode(path: path, options: options), shortestWeakCode: shortestWeakCode)
      if !second.isEmpty { return attachingAddOns(second) }
    }
    return attachingAddOns(everyLine)
  }

  /// The codes of a sharpened soft picture that the picture sharpened a second way, by a wider and
  /// gentler mask, reads too. Sharpening guesses at bars blurred past their narrowest: of 120
  /// likenesses of blurred EAN-13s (bars 2.8 pixels a module, blurred by 1.4 to 2.2), the first
  /// sharpening read 30 right and 3 wrong; the second read each of the 30 again and none of the 3
  /// (it read nothing, or the right code where the first read a wrong one). ZXing's photos read
  /// as many as before. A QR code is no guess (its error correction checks it) and stands alone.
  private static func readAgain(_ found: [ScannedSymbol], sharpening image: inout cimg_gray, shortestWeakCode: Int)
    -> [ScannedSymbol]
  {
    var again = cimg_sharpen(&image, 4, 150)
    defer { cimg_free(&again) }
    guard again.pixels != nil else { return [] }
    let second = symbols(in: &again, scale: 1, density: 1, shortestWeakCode: shortestWeakCode)
    return found.filter { code in
      code.symbology == "QR-Code" || second.contains { $0.symbology == code.symbology && $0.text == code.text }
    }
  }

  /// A large photo's passes, bounded: its codes are large too, so the work is done on a copy
  /// halved until it is at most `workingPixels`, every line and in its other greys; the full
  /// size is scanned once at every second line (a small code in a corner of a large picture,
  /// which every fourth line missed), and the second decoder tried once. A 39-megapixel photo
  /// with no code took 13.5 s of CPU when each pass ran at full size; so, 2.5 s.
  private static func largePhotoPasses(path: String, image: inout cimg_gray, shortestWeakCode: Int)
    -> [ScannedSymbol]
  {
    let started = cpuMilliseconds()
    var working = cimg_half(&image)
    var halvings = 1
    while working.pixels != nil, Int(working.width) * Int(working.height) > workingPixels {
      let next = cimg_half(&working)
      cimg_free(&working)
      working = next
      halvings += 1
    }
    defer { cimg_free(&working) }
    let scale = 1 << halvings
    var found: [ScannedSymbol] = []
    if working.pixels != nil {
      found = symbols(in: &working, scale: scale, density: 1, shortestWeakCode: shortestWeakCode)
    }
    // A picture of up to `workingPixels` (a 1920×1080 frame) read at half size is done: its
    // codes are not too small for that. A larger one is read at full size too, whatever the
    // halved copy found: a small label beside a cover's barcode is seen only there (a 1920×1080
    // QR label took 26 ms so, against 11 ms).
    if Int(image.width) * Int(image.height) <= workingPixels, found.contains(where: { !$0.isAddOn }) {
      return attachingAddOns(found)
    }
    let sparse = bands(of: &image, density: 2, shortestWeakCode: shortestWeakCode, until: started + passesBudget)
    if (found + sparse).contains(where: { !$0.isAddOn }) {
      return attachingAddOns(believable(sparse + found, shortestWeakCode: shortestWeakCode))
    }
    // The time a photo's passes may take is spent: nothing found (a photo of noise, every pixel an
    // edge to zbar, took 2.3 s in this pass alone).
    if cpuMilliseconds() > started + passesBudget { return [] }
    if working.pixels != nil,
      let found = otherGreys(of: path, luma: &working, halvings: halvings, shortestWeakCode: shortestWeakCode)
    {
      return attachingAddOns(found)
    }
    if cpuMilliseconds() > started + passesBudget { return [] }
    // ZXing on the whole of a photo over `workingPixels` at half its size, which libjpeg decodes
    // at a quarter of the cost: 39 megapixels with no code, 410 ms at full size.
    let shrink = Int(image.width) * Int(image.height) > workingPixels ? ["--shrink", "2"] : []
    return attachingAddOns(
      believable(SecondDecoder.decode(path: path, options: shrink), shortestWeakCode: shortestWeakCode))
  }

  /// The processor time a large photo's passes may take, in milliseconds, after its decoding.
  static let passesBudget: Int64 = 1_000

  /// Rows of a full-size photo read at once, and how far each band reaches into the next: a code
  /// across a band's edge is whole in one of the two.
  static let bandRows = 1_024
  static let bandOverlap = 256

  /// A full-size photo read band by band at every `density`th line, until the processor time
  /// reaches `deadline`: what the bands read so far.
  private static func bands(of image: inout cimg_gray, density: Int32, shortestWeakCode: Int, until deadline: Int64)
    -> [ScannedSymbol]
  {
    guard let pixels = image.pixels else { return [] }
    var found: [ScannedSymbol] = []
    var top = 0
    while top < Int(image.height) {
      let rows = min(bandRows, Int(image.height) - top)
      var band = cimg_gray(width: image.width, height: Int32(rows), pixels: pixels + top * Int(image.width))
      for var symbol in symbols(in: &band, scale: 1, density: density, shortestWeakCode: shortestWeakCode) {
        symbol.box.top += top
        symbol.box.bottom += top
        found.append(symbol)
      }
      if cpuMilliseconds() > deadline || top + rows >= Int(image.height) { break }
      top += bandRows - bandOverlap
    }
    return believable(found, shortestWeakCode: shortestWeakCode)
  }

  /// The processor time this thread has taken, in milliseconds: the desk's other threads (its
  /// sync, its searches) spend none of a scan's time.
  static func cpuMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// The size a large photo is halved to for most of its passes.
  static let workingPixels = 4_000_000

  /// Pictures up to this size are read at twice their size where nothing else reads them: the
  /// bars of a small code a few pixels wide. A larger photo's codes are large enough.
  static let upscaleUpToPixels = 2_000_000

  /// The codes that are codes: a weak symbology's read shorter than `shortestWeakCode` or seen
  /// on a single scan line (a perforated grille reads as Code 39 «T»; a one-pixel I2/5 box
  /// inside an EAN-13) is none; and one code a place: reads of one kind of code lying on each
  /// other are one code, the one most scan lines agree on.
  static func believable(_ found: [ScannedSymbol], shortestWeakCode: Int) -> [ScannedSymbol] {
    var result: [ScannedSymbol] = []
    // EAN and UPC codes are one kind here: one code's bars read as either.
    let family = { (code: ScannedSymbol) in
      ScannedSymbol.productCodes.contains(code.symbology) ? "product" : code.symbology
    }
    for symbol in found {
      // UPC-E is no code here, as the second decoder is never asked for one: the right half of a
      // blurred or tilted EAN-13 reads as one («07781278» for an ISBN), and books carry none.
      // (zbar is still asked for it: told not to, it gives those reads as UPC-A, «077812000078».)
      if symbol.symbology == "UPC-E" { continue }
      // A linear code with no width is none (a phantom of the bars beside it).
      if symbol.symbology != "QR-Code" && symbol.box.left == symbol.box.right && symbol.box.top == symbol.box.bottom
        && symbol.lines != Int.max
      {
        continue
      }
      if ScannedSymbol.weakSymbologies.contains(symbol.symbology),
        symbol.text.count < shortestWeakCode || symbol.lines < 2
      {
        continue
      }
      if let same = result.firstIndex(where: { family($0) == family(symbol) && $0.overlaps(symbol) && !symbol.isAddOn })
      {
        if symbol.lines > result[same].lines { result[same] = symbol }
        continue
      }
      result.append(symbol)
    }
    // A UPC-E or EAN-8 on the lines of an EAN-13 or UPC-A, within its reach, is a part of its bars
    // read as a code (a motion-blurred ISBN gave a UPC-E «01151107» beside it).
    return result.filter { short in
      guard ScannedSymbol.shortProductCodes.contains(short.symbology) else { return true }
      return !result.contains { long in
        ScannedSymbol.productCodes.contains(long.symbology) && !ScannedSymbol.shortProductCodes.contains(long.symbology)
          && long.reaches(short)
      }
    }
  }

  /// The passes for a photo that its grey conversion fails: each colour channel, the one with
  /// the most contrast first (a red code on green paper is one level of grey), then the grey
  /// with its contrast stretched block by block (glare, faint print). The first that finds a code.
  /// `halvings`: `luma` is the photo halved so many times, and its channels are halved as often;
  /// such a copy is read at every second line (its codes are large): of a 39-megapixel photo with
  /// no code, these passes took 690 ms at every line.
  static func otherGreys(of path: String, luma: inout cimg_gray, halvings: Int = 0, shortestWeakCode: Int)
    -> [ScannedSymbol]?
  {
    var channels = [cimg_gray(), cimg_gray(), cimg_gray()]
    var colour: Int32 = 0
    let scale = 1 << halvings
    let density: Int32 = halvings > 0 ? 2 : 1
    let status = channels.withUnsafeMutableBufferPointer { buffer in
      cimg_load_channels(path, maximumPixels, Int32(scale), buffer.baseAddress, &colour)
    }
    defer { for index in channels.indices { cimg_free(&channels[index]) } }
    if status == CIMG_OK, colour != 0 {
      // A JPEG comes decoded at the size asked; a PNG at its own, halved here to it.
      for index in channels.indices {
        while channels[index].pixels != nil, channels[index].width > luma.width + luma.width / 2 {
          let half = cimg_half(&channels[index])
          cimg_free(&channels[index])
          channels[index] = half
        }
      }
      let order = channels.indices.sorted { cimg_spread(&channels[$0]) > cimg_spread(&channels[$1]) }
      for index in order where channels[index].pixels != nil {
        let found = symbols(in: &channels[index], scale: scale, density: density, shortestWeakCode: shortestWeakCode)
        if found.contains(where: { !$0.isAddOn }) { return found }
      }
    }
    var stretched = cimg_stretch(&luma, 32)
    defer { cimg_free(&stretched) }
    guard stretched.pixels != nil else { return nil }
    let found = symbols(in: &stretched, scale: scale, density: density, shortestWeakCode: shortestWeakCode)
    return found.contains(where: { !$0.isAddOn }) ? found : nil
  }

  /// Each add-on joined to the EAN-13 or UPC on its line, nearest to its left; an add-on with
  /// none is not a code and is left out. Beside an ISBN only a 5-digit add-on (its price) is
  /// printed: a 2-digit one there is a 5-digit one cut off at the picture's edge.
  static func attachingAddOns(_ found: [ScannedSymbol]) -> [ScannedSymbol] {
    var result = found.filter { !$0.isAddOn }
    for addOn in found where addOn.isAddOn {
      let candidates = result.indices.filter { index in
        let main = result[index]
        if main.isISBN && addOn.symbology == "EAN-2" { return false }
        return main.takesAddOn && main.addOn == nil && main.box.top <= addOn.box.bottom
          && addOn.box.top <= main.box.bottom && main.box.left <= addOn.box.left
      }
      guard
        let nearest = candidates.min(by: {
          addOn.box.left - result[$0].box.right < addOn.box.left - result[$1].box.right
        })
      else { continue }
      result[nearest].addOn = addOn.text
    }
    return result
  }

  /// `density` 2 scans every second line each way: a code on a label or a cover spans dozens of
  /// lines, and it halves the time. A halved frame is scanned at every line.
  private static func symbols(in image: inout cimg_gray, scale: Int, density: Int32, shortestWeakCode: Int)
    -> [ScannedSymbol]
  {
    var found = cimg_scan(&image, density)
    defer { cimg_free_symbols(&found) }
    var result: [ScannedSymbol] = []
    for index in 0..<Int(found.count) {
      let symbol = found.symbols[index]
      let type = withUnsafeBytes(of: symbol.type) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      var bytes = symbol.data.map { Array(UnsafeBufferPointer(start: $0, count: symbol.length)) } ?? []
      // A Codabar's start and stop letters frame its number (a library card's A…B): zbar gives
      // them, ZXing does not, and a card must read the same from both.
      if type == "Codabar", bytes.count > 2, let first = bytes.first, let last = bytes.last,
        (0x41...0x44).contains(first), (0x41...0x44).contains(last)
      {
        bytes = Array(bytes.dropFirst().dropLast())
      }
      var read = ScannedSymbol(
        symbology: type, bytes: bytes,
        box: ScannedSymbol.Box(
          left: Int(symbol.left) * scale, top: Int(symbol.top) * scale, right: Int(symbol.right) * scale,
          bottom: Int(symbol.bottom) * scale))
      read.lines = Int(symbol.quality)
      // zbar drops an EAN or UPC read (add-ons too) seen on fewer than three lines when it reads
      // every line, its own filter of bad product-code reads; at every second line it keeps
      // them, and a tilted, blurred EAN-13 gave a wrong UPC-A so, on two lines. The same rule
      // here: the every-line pass, which comes next, decides (for a large photo, its halved copy
      // read at every line; its full size, read at every second line, holds codes many lines tall).
      if density > 1, ScannedSymbol.productCodes.contains(type) || read.isAddOn, read.lines < 3 { continue }
      result.append(read)
    }
    // Reading order: top to bottom, then left to right.
    return believable(result, shortestWeakCode: shortestWeakCode).sorted {
      ($0.box.top, $0.box.left) < ($1.box.top, $1.box.left)
    }
  }
}
