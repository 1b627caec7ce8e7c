import CImaging
import DeskDomain
import DeskTestSupport
import Dispatch
import Foundation
import Testing

@testable import DeskScanning

/// Real zbar on real images, made at test time by the project's label writer and by Debian's
/// encoders (qrencode, zint) and converted by ImageMagick into every common pixel format.
@Suite struct ImageScannerTests {
  let folder = TemporaryFolder()

  /// Runs one of the image tools; the test fails with its message when it fails. ImageMagick is
  /// called by its full path, /usr/bin/convert: another `convert` may come first on the PATH.
  @discardableResult
  func tool(_ arguments: [String], input: String? = nil) throws -> String {
    let result = try runProgram("/usr/bin/env", arguments)
    if result.status != 0 {
      Issue.record("\(arguments.joined(separator: " ")) failed: \(result.errors)")
    }
    return result.output
  }

  func qr(_ text: String, name: String) throws -> String {
    let path = folder.file(name)
    try tool(["qrencode", "-s", "6", "-o", path, text])
    return path
  }

  func ean(_ digits: String, name: String) throws -> String {
    let path = folder.file(name)
    try tool(["zint", "-b", "EANX", "--scale", "2", "-d", digits, "-o", path])
    return path
  }

  func convert(_ source: String, _ options: [String], to name: String) throws -> String {
    let path = folder.file(name)
    try tool(["/usr/bin/convert", source] + options + [path])
    return path
  }

  /// A code as a camera out of focus takes it: turned by `turn` degrees, shrunk to 70 %, blurred
  /// by `blur` pixels, noised, and saved as a JPEG of `quality`.
  func outOfFocus(
    _ source: String, seed: String, turn: String, blur: String, noise: String = "0.36", quality: String = "57"
  ) throws -> String {
    try convert(
      source,
      [
        "-seed", seed, "-background", "white", "-rotate", turn, "-resize", "70%", "-blur", "0x" + blur,
        "-attenuate", noise, "+noise", "Gaussian", "-quality", quality,
      ], to: "out-of-focus-\(seed)-\(blur).jpg")
  }

  @Test func theCyrillicRecordOfTheOriginalAppSurvivesAQRCode() throws {
    let record = """
      ISBN: 978-5-17-079585-7
      Фамилия автора: Лермонтов
      Инициалы автора: М. Ю.
      Название книги: Герой нашего времени
      Название издательства: АСТ
      Город издания: Москва
      Год издания: 2018
      Число страниц: 414
      Цена: 254
      ББК: 84(2Рос=Рус)1
      Авторский знак: Л49
      """
    let symbols = try ImageScanner.scan(path: qr(record, name: "record.png"))
    #expect(symbols.map(\.symbology) == ["QR-Code"])
    #expect(symbols.first?.text == record)
    let draft = try #require(BookRecordLabel.parse(symbols.first?.text ?? ""))
    #expect(draft.title == "Герой нашего времени")
    #expect(draft.authorInitials == "М. Ю.")
    #expect(draft.bbk == "84(2Рос=Рус)1")
  }

  @Test func shortCyrillicStringsComeBackIntact() throws {
    let words = [
      "да", "нет", "Ёж", "мир", "Дон", "Мцыри", "Нос", "Бесы", "Идиот", "Гроза", "Мы", "Дар", "Бег", "Лес",
      "Чайка", "Ревизор", "Обломов", "Левша", "Асся", "Муму", "Лавр", "Кысь", "Каштанка", "Поединок", "Котлован",
      "Детство", "Юность", "Отрочество", "Белые ночи", "Записки", "Шинель", "Вий", "Тарас Бульба", "Ася",
    ]
    #expect(words.count >= 30)
    for (index, word) in words.enumerated() {
      let symbols = try ImageScanner.scan(path: qr(word, name: "word-\(index).png"))
      #expect(symbols.map(\.text) == [word], "«\(word)»")
    }
  }

  @Test func windows1251QRTextIsRecognised() throws {
    let word = "Преступление и наказание"
    let bytesPath = folder.file("cp1251.txt")
    try Data(try #require(Windows1251.encode(word))).write(to: URL(fileURLWithPath: bytesPath))
    let path = folder.file("cp1251.png")
    try tool(["qrencode", "-8", "-s", "6", "-r", bytesPath, "-o", path])
    let symbols = try ImageScanner.scan(path: path)
    #expect(symbols.first?.bytes == Windows1251.encode(word))
    #expect(symbols.first?.text == word)
  }

  @Test func anISBNBarcodeAndItsPriceAddOn() throws {
    let plain = try ImageScanner.scan(path: ean("9785170795857", name: "isbn.png"))
    #expect(plain.map(\.symbology) == ["ISBN-13"])
    #expect(plain.map(\.text) == ["9785170795857"])
    // The add-on is part of the ISBN's symbol, not a code of its own.
    let withAddOn = try ImageScanner.scan(path: ean("9785170795857+90000", name: "addon.png"))
    #expect(withAddOn.map(\.text) == ["9785170795857"])
    #expect(withAddOn.map(\.symbology) == ["ISBN-13"])
    #expect(withAddOn.first?.addOn == "90000")
    // Beside an ISBN only a 5-digit add-on is printed: two digits there are five cut off at the
    // picture's edge, and are not reported; beside another EAN-13 they are its add-on.
    let twoDigits = try ImageScanner.scan(path: ean("9785170795857+12", name: "addon2.png"))
    #expect(twoDigits.map(\.text) == ["9785170795857"] && twoDigits.first?.addOn == nil)
    let product = try ImageScanner.scan(path: ean("4006381333931+12", name: "product.png"))
    #expect(product.map(\.text) == ["4006381333931"] && product.first?.addOn == "12")
  }

  /// Code 39 (like Codabar and Interleaved 2 of 5) has no check of its own: a read shorter than
  /// the library's shortest code (4) is no code; a real label's is read.
  @Test func aShortOrOneLineWeakCodeIsNoCode() throws {
    func code39(_ text: String, name: String) throws -> String {
      let path = folder.file(name)
      try tool(["zint", "-b", "8", "--scale", "2", "-d", text, "-o", path])
      return path
    }
    #expect(try ImageScanner.scan(path: code39("T", name: "t.png")).isEmpty)
    #expect(try ImageScanner.scan(path: code39("T12", name: "t12.png")).isEmpty)
    #expect(try ImageScanner.scan(path: code39("T12", name: "t12b.png"), shortestWeakCode: 3).map(\.text) == ["T12"])
    let label = try code39("INV1234", name: "label.png")
    #expect(try ImageScanner.scan(path: label).map(\.text) == ["INV1234"])
  }

  /// A blurred, turned or noisy EAN-13 whose right half zbar reads as a UPC-E (two different
  /// ones, one above the other, in the first picture): the right code or none, never a UPC-E.
  /// Two EAN-13 labels printed one above the other, their digits between them, are both read.
  @Test func aBlurredEAN13IsNeverAUPCE() throws {
    let isbn = folder.file("isbn.png")
    try tool(["zint", "-b", "13", "--scale", "2", "-d", "978517079585", "-o", isbn])
    let other = folder.file("other.png")
    try tool(["zint", "-b", "13", "-d", "400638133393", "-o", other])
    for (source, name, distortion) in [
      (isbn, "blurred.png", ["-rotate", "3", "-resize", "80%", "-blur", "0x2.5"]),
      (isbn, "blurred.jpg", ["-rotate", "-3", "-resize", "80%", "-blur", "0x2", "-quality", "30"]),
      (
        other, "noisy.jpg",
        [
          "-seed", "74", "-rotate", "2", "-resize", "130%", "-blur", "0x1.5", "-attenuate", "0.2", "+noise", "Gaussian",
          "-quality", "40",
        ]
      ),
    ] {
      let path = folder.file(name)
      try tool(["/usr/bin/convert", source, "-background", "white"] + distortion + [path])
      let read = try ImageScanner.scan(path: path)
      #expect(
        read.allSatisfy { ["9785170795857", "4006381333931"].contains($0.text) }, "\(name): \(read.map(\.text))")
    }
    let (first, second, sheet) = (folder.file("first.png"), folder.file("second.png"), folder.file("sheet.png"))
    try tool(["zint", "-b", "13", "--scale", "2", "-d", "978517079585", "-o", first])
    try tool(["zint", "-b", "13", "--scale", "2", "-d", "978014143951", "-o", second])
    try tool(["/usr/bin/convert", first, second, "-background", "white", "-append", sheet])
    #expect(Set(try ImageScanner.scan(path: sheet).map(\.text)) == ["9785170795857", "9780141439518"])
  }

  /// Code 128 with Latin-1 characters (FNC4-shifted), which zbar reads without their high bit,
  /// comes back whole; a plain Code 128 label as it is.
  @Test func code128KeepsItsLatin1Letters() throws {
    let accented = folder.file("latin1.png")
    try tool(["zint", "-b", "20", "--scale", "2", "-d", "óóóó1234óóabózz", "-o", accented])
    #expect(try ImageScanner.scan(path: accented).map(\.text) == ["óóóó1234óóabózz"])
    let plain = folder.file("plain.png")
    try tool(["zint", "-b", "20", "--scale", "2", "-d", "INV-100234", "-o", plain])
    #expect(try ImageScanner.scan(path: plain).map(\.text) == ["INV-100234"])
    // Read as Latin-1, Code 128's own set, never guessed at.
    for text in ["ÄÖÜ", "xóóóó1234", "Müller"] {
      let label = folder.file("latin1-\(text.count).png")
      try tool(["zint", "-b", "20", "--scale", "2", "-d", text, "-o", label])
      #expect(try ImageScanner.scan(path: label).map(\.text) == [text])
    }
  }

  /// A motion-blurred ISBN, where zbar also reads a UPC-E out of its bars: the ISBN alone.
  @Test func aShortProductCodeInsideALongOneIsNone() throws {
    let blurred = try convert(
      try ean("9785170795857", name: "moving-ean.png"),
      ["-bordercolor", "white", "-border", "30", "-motion-blur", "0x5+0"], to: "moving-ean-blurred.png")
    #expect(try ImageScanner.scan(path: blurred).map(\.text) == ["9785170795857"])
  }

  /// A Codabar library card reads the same sharp or blurred: its number, without the start and
  /// stop letters zbar gives and ZXing does not.
  @Test func aCodabarCardReadsTheSameSharpOrBlurred() throws {
    let card = folder.file("card.png")
    try tool(["zint", "-b", "18", "--scale", "2", "-d", "A123456B", "-o", card])
    let blurred = try convert(card, ["-bordercolor", "white", "-border", "30", "-blur", "0x2.6"], to: "card-soft.png")
    #expect(try ImageScanner.scan(path: card).map { "\($0.symbology) \($0.text)" } == ["Codabar 123456"])
    #expect(try ImageScanner.scan(path: blurred).map { "\($0.symbology) \($0.text)" } == ["Codabar 123456"])
  }

  /// An unsharp mask steepens a soft edge and leaves flat paper as it was.
  @Test func sharpeningSteepensASoftEdge() {
    // A ramp from black to white over eight pixels, between flat areas.
    var row = [UInt8](repeating: 0, count: 40)
    for x in 0..<40 { row[x] = x < 16 ? 0 : x >= 24 ? 255 : UInt8((x - 16) * 32) }
    var pixels = Array([[UInt8]](repeating: row, count: 20).joined())
    var soft = cimg_gray(width: 40, height: 20, pixels: nil)
    var sharp = pixels.withUnsafeMutableBufferPointer { buffer in
      soft.pixels = buffer.baseAddress
      return cimg_sharpen(&soft, 2, 150)
    }
    defer { cimg_free(&sharp) }
    guard let sharpened = sharp.pixels else {
      Issue.record("no sharpened copy")
      return
    }
    let middle = 10 * 40
    // Far from the edge, the same; beside it, pushed apart (darker before, lighter after).
    #expect(sharpened[middle + 2] == 0 && sharpened[middle + 37] == 255)
    #expect(sharpened[middle + 18] < pixels[middle + 18])
    #expect(sharpened[middle + 22] > pixels[middle + 22])
  }

  /// A book's barcode out of focus (blurred by 2.6 pixels, where zbar and ZXing as they are read
  /// nothing) is read.
  @Test func aBarcodeOutOfFocusIsRead() throws {
    let soft = try convert(
      try ean("9785170795857", name: "focus.png"), ["-bordercolor", "white", "-border", "20", "-blur", "0x2.6"],
      to: "focus-soft.png")
    #expect(try ImageScanner.scan(path: soft).map(\.text) == ["9785170795857"])
  }

  /// The second decoder reads a large photo at half its size (a JPEG decoded so by libjpeg, a
  /// PNG halved), and says where the code lies in the photo's own pixels.
  @Test func theSecondDecoderReadsALargePhotoAtHalfSize() throws {
    let barcode = try convert(try ean("9785170795857", name: "half-ean.png"), ["-resize", "600%"], to: "half-ean2.png")
    for ext in ["jpg", "png"] {
      let photo = folder.file("half.\(ext)")
      try tool([
        "/usr/bin/convert", "-size", "3000x2000", "gradient:wheat-tan", barcode, "-gravity", "center", "-composite",
        photo,
      ])
      let found = SecondDecoder.decode(path: photo, options: ["--shrink", "2"])
      #expect(found.map(\.text) == ["9785170795857"], "\(ext)")
      #expect(found.first.map { abs(($0.box.left + $0.box.right) / 2 - 1500) < 60 } == true, "\(found.map(\.box))")
    }
  }

  /// A large photo (6 megapixels, in colour): its book's barcode across the middle is read on a
  /// halved copy, in its place in the full picture; a small QR label in a corner, which the
  /// halved copy loses, by the pass at full size, beside the barcode or alone.
  @Test func aLargePhotoIsReadOnAHalvedCopyAndOnceAtFullSize() throws {
    let barcode = try convert(try ean("9785170795857", name: "big-ean.png"), ["-resize", "600%"], to: "big-ean2.png")
    let label = try qr("100234", name: "corner.png")
    let photo = folder.file("large.jpg")
    try tool([
      "/usr/bin/convert", "-size", "3000x2000", "gradient:wheat-tan", barcode, "-gravity", "center", "-composite",
      "-quality", "90", photo,
    ])
    let found = try ImageScanner.scan(path: photo)
    #expect(found.map(\.text) == ["9785170795857"])
    // Centred in the picture: the halved copy's box, in the full picture's pixels.
    #expect(found.first.map { abs(($0.box.left + $0.box.right) / 2 - 1500) < 100 } == true, "\(found.map(\.box))")
    // With a small label beside the barcode, both: the full size is read too.
    let both = folder.file("large-both.jpg")
    try tool([
      "/usr/bin/convert", photo, try convert(label, ["-scale", "50%"], to: "tiny-qr-2.png"), "-gravity", "southeast",
      "-geometry", "+200+200", "-composite", "-quality", "95", both,
    ])
    #expect(Set(try ImageScanner.scan(path: both).map(\.text)) == ["9785170795857", "100234"])
    // Without the barcode, the small label is found by the full-size pass.
    let cornerOnly = folder.file("large-corner.jpg")
    try tool([
      "/usr/bin/convert", "-size", "3000x2000", "gradient:wheat-tan",
      try convert(label, ["-scale", "50%"], to: "tiny-qr.png"),
      "-gravity", "southeast", "-geometry", "+200+200", "-composite", "-quality", "95", cornerOnly,
    ])
    #expect(try ImageScanner.scan(path: cornerOnly).map(\.text) == ["100234"])
  }

  /// Reads of one kind of code lying on each other are one code: the one most scan lines agree
  /// on (a barcode read as three EAN-13s is listed once); a weak code one scan line saw is none.
  @Test func oneCodeAPlace() {
    func read(_ text: String, _ symbology: String, left: Int, lines: Int) -> ScannedSymbol {
      var symbol = ScannedSymbol(
        symbology: symbology, bytes: Array(text.utf8), box: .init(left: left, top: 10, right: left + 100, bottom: 60))
      symbol.lines = lines
      return symbol
    }
    let found = ImageScanner.believable(
      [
        read("9785170795857", "ISBN-13", left: 0, lines: 40), read("9785170795851", "EAN-13", left: 5, lines: 2),
        read("4785170795857", "EAN-13", left: 3, lines: 1), read("9780141439518", "ISBN-13", left: 300, lines: 30),
        read("100234", "QR-Code", left: 10, lines: 1), read("901985", "I2/5", left: 40, lines: 1),
        read("INV1234", "CODE-39", left: 600, lines: 12),
      ], shortestWeakCode: 4)
    // The I2/5 one scan line saw inside the EAN-13 is none.
    #expect(found.map(\.text) == ["9785170795857", "9780141439518", "100234", "INV1234"])
  }

  /// One EAN-13, tilted, blurred and noisy, read two ways on different lines (a wrong UPC-A
  /// «721113001202» above the right code): the bars run on between the two reads, so they are one
  /// code, and the read on more lines stands. Two codes printed one above the other, with white
  /// between them (a sheet of labels), are both read.
  @Test func oneCodeReadTwoWaysOnItsLinesIsOneCode() throws {
    let code = try ean("871125300120", name: "code.png")
    let tilted = try outOfFocus(code, seed: "114", turn: "-1.1", blur: "1.7", noise: "0.26", quality: "30")
    #expect(try ImageScanner.scan(path: tilted).map(\.text) == ["8711253001202"])

    let other = try ean("978514300120", name: "other.png")
    let sheet = folder.file("sheet.png")
    try tool([
      "/usr/bin/convert", code, "-size", "1x20", "xc:white", other, "-background", "white", "-gravity", "center",
      "-append", sheet,
    ])
    #expect(try ImageScanner.scan(path: sheet).map(\.text) == ["8711253001202", "9785143001206"])
  }

  /// A tilted, blurred EAN-13 that zbar, reading every second line, reads on two lines as a
  /// wrong UPC-A («121173001202»), and reading every line not at all: so few lines are no read,
  /// as zbar holds them when it reads every line, and the passes after read it right.
  @Test func aProductCodeOnTwoOfEverySecondLineIsNoRead() throws {
    let code = try ean("871125300120", name: "code.png")
    let blurred = try outOfFocus(code, seed: "104", turn: "-2.1", blur: "1.8")
    #expect(try ImageScanner.scan(path: blurred).map(\.text) == ["8711253001202"])
  }

  /// An ISBN blurred past its narrowest bars, which zbar reads only sharpened, and sharpened
  /// read wrong («4787388062061», «9725729062061»): a sharpened read stands only where the picture
  /// sharpened a second way reads it too. The one is then read right by the passes after; the
  /// other, blurred more, not at all.
  @Test func aSharpenedGuessIsNoRead() throws {
    let code = try ean("978538906206", name: "code.png")
    let softer = try outOfFocus(code, seed: "102", turn: "1.0", blur: "1.8")
    #expect(try ImageScanner.scan(path: softer).map(\.text) == ["9785389062061"])
    #expect(try ImageScanner.scan(path: outOfFocus(code, seed: "107", turn: "2.8", blur: "2.2")).isEmpty)
  }

  /// A 2- or 5-digit add-on with no EAN-13 beside it is not a code.
  @Test func aLoneAddOnIsNoCode() throws {
    #expect(try ImageScanner.scan(path: ean("51299", name: "lone5.png")).isEmpty)
    #expect(try ImageScanner.scan(path: ean("12", name: "lone2.png")).isEmpty)
    // Beside a QR label: the label is read, the stray add-on is not reported.
    let label = try qr("Инвентарный номер: 100234\nНазвание книги: Герой нашего времени", name: "label.png")
    let stray = try ean("51299", name: "stray.png")
    let photo = folder.file("stray-and-label.png")
    try tool(["/usr/bin/convert", stray, label, "-background", "white", "-gravity", "center", "+append", photo])
    let found = try ImageScanner.scan(path: photo)
    #expect(found.map(\.symbology) == ["QR-Code"], "\(found)")
  }

  /// A red code on green paper whose reds and greens are one level of grey: the grey conversion
  /// shows nothing, the channel with the most contrast shows the code.
  @Test func aColourPhotoWhoseGreyHidesTheCodeIsReadFromItsChannels() throws {
    let code = try ean("9785170795857", name: "plain.png")
    let path = folder.file("red-on-green.png")
    // sRGB red 255 and green 148 have the same luminance: libpng's grey makes them one level.
    try tool([
      "/usr/bin/convert", code, "-fill", "rgb(255,0,0)", "-opaque", "black", "-fill", "rgb(0,148,0)", "-opaque",
      "white", path,
    ])
    var grey = cimg_gray()
    var message = [CChar](repeating: 0, count: 256)
    #expect(cimg_load(path, 40_000_000, &grey, &message, message.count) == CIMG_OK)
    defer { cimg_free(&grey) }
    #expect(cimg_spread(&grey) < 1, "the grey image is flat")
    var found = cimg_scan(&grey, 1)
    #expect(found.count == 0, "zbar finds nothing in the grey")
    cimg_free_symbols(&found)
    let symbols = try ImageScanner.scan(path: path)
    #expect(symbols.map(\.text) == ["9785170795857"])
  }

  /// Where zbar reads nothing, ZXing is asked, in a process of its own: a DataMatrix, which zbar
  /// does not read at all.
  @Test func theSecondDecoderReadsWhatZbarCannot() throws {
    let path = folder.file("datamatrix.png")
    try tool([
      "zint", "-b", "71", "--scale", "4", "--whitesp", "10", "--vwhitesp", "10", "-d", "9785170795857", "-o", path,
    ])
    var grey = cimg_gray()
    var message = [CChar](repeating: 0, count: 256)
    #expect(cimg_load(path, 40_000_000, &grey, &message, message.count) == CIMG_OK)
    var found = cimg_scan(&grey, 1)
    #expect(found.count == 0, "zbar reads no DataMatrix")
    cimg_free_symbols(&found)
    cimg_free(&grey)
    let symbols = try ImageScanner.scan(path: path)
    #expect(symbols.map(\.symbology) == ["DataMatrix"])
    #expect(symbols.map(\.text) == ["9785170795857"])
    #expect(symbols.first.map { $0.box.right > $0.box.left } == true, "with its position")
  }

  /// A second decoder that aborts or hangs is only "nothing read": the desk goes on.
  @Test func aDecoderThatCrashesOrHangsNeverTakesTheDeskDown() throws {
    let code = try ean("9785170795857", name: "any.png")
    let aborting = folder.file("aborting.sh")
    try "#!/bin/sh\nkill -ABRT $$\n".write(toFile: aborting, atomically: true, encoding: .utf8)
    let hanging = folder.file("hanging.sh")
    try "#!/bin/sh\nexec sleep 60\n".write(toFile: hanging, atomically: true, encoding: .utf8)
    for script in [aborting, hanging] { chmod(script, 0o755) }
    #expect(SecondDecoder.decode(path: code, program: aborting).isEmpty)
    let started = DispatchTime.now().uptimeNanoseconds
    #expect(SecondDecoder.decode(path: code, program: hanging, timeLimitMilliseconds: 300).isEmpty)
    let took = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
    #expect(took < 30_000, "stopped after its time, not after the decoder's minute: \(took) ms")
    #expect(SecondDecoder.decode(path: code, program: folder.file("missing-decoder")).isEmpty)
    // The real one reads the code the others could not.
    #expect(SecondDecoder.decode(path: code).map(\.text) == ["9785170795857"])
  }

  /// A real image on which ZXing 1.4 aborts when it looks for every format: a one-pixel row of
  /// a GS1 DataBar on the image's middle row, and a stacked DataBar of the same number below it.
  /// The row is read first and kept; when the stacked symbol, read as two lines, is compared with
  /// it, `Result::operator==` fails its assertion `lineCount() == 1` (upstream zxing-cpp #516).
  /// The desk asks ZXing for its own formats, DataBar not among them: nothing read, nothing dies.
  @Test func theImageThatAbortedZXingIsNotAskedAbout() throws {
    let omni = folder.file("omni.png")
    let stacked = folder.file("stacked.png")
    let row = folder.file("row.png")
    let image = folder.file("databar-row-and-stacked.png")
    try tool(["zint", "-b", "29", "-d", "0950110153001", "--notext", "--scale=0.5", "-o", omni])
    try tool(["zint", "-b", "79", "-d", "0950110153001", "--notext", "--scale=0.5", "-o", stacked])
    try tool(["/usr/bin/convert", omni, "-crop", "96x1+0+25", "+repage", row])
    try tool([
      "/usr/bin/convert", "-size", "116x48", "xc:white", row, "-geometry", "+10+24", "-composite", stacked,
      "-geometry", "+10+30", "-composite", "-colorspace", "gray", "-depth", "8", image,
    ])
    // The decoder died of the assertion (Debian 12's libzxing 1.4.0) while it looked for every
    // format; it looks for the desk's own now, DataBar not among them, and reads nothing here.
    // Run where a crash would leave a core file: it leaves none. (A decoder that dies is
    // `theSecondDecoderReadsWhatZbarCannot`'s.)
    let alone = try runProgram(
      "/bin/sh",
      [
        "-c", "cd \"$2\" && ulimit -c unlimited && \"$0\" \"$1\" 2>&1; echo \"status $?\"", SecondDecoder.program,
        image, folder.path,
      ])
    #expect(alone.output == "status 0\n", "\(alone.output)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("core")), "no core file left")
    #expect(SecondDecoder.decode(path: image).isEmpty)
    #expect(try ImageScanner.scan(path: image).isEmpty, "nothing read, and the desk still here")
  }

  /// A QR code that names its character set (an ECI designator: 7 is ISO-8859-5 Cyrillic, bytes
  /// that are neither UTF-8 nor Windows-1251 text) is read in it, not guessed at.
  @Test func anECIDesignatorWinsOverGuessing() throws {
    let path = folder.file("eci.png")
    try tool(["zint", "-b", "58", "--eci=7", "--scale", "4", "-d", "Мцыри Лермонтов", "-o", path])
    #expect(try ImageScanner.scan(path: path).map(\.text) == ["Мцыри Лермонтов"])
    // The second decoder passes ZXing's text where the symbol named its set.
    #expect(SecondDecoder.decode(path: path).map(\.text) == ["Мцыри Лермонтов"])
    // Windows-1251 named (ECI 22) and GB2312 named (ECI 29): capitals and Han that the bytes
    // alone would give to another set.
    for (eci, text) in [("22", "СССР"), ("29", "中文")] {
      let named = folder.file("eci-\(eci).png")
      try tool(["zint", "-b", "58", "--eci=\(eci)", "--scale", "4", "-d", text, "-o", named])
      #expect(try ImageScanner.scan(path: named).map(\.text) == [text], "ECI \(eci)")
    }
  }

  /// Japanese publishers' QR codes are Shift-JIS (half-width katakana too), Chinese ones GB2312,
  /// Russian ones may be Windows-1251: each QR made by qrencode from the bytes iconv writes
  /// reads back as the text it was made of.
  @Test(arguments: [
    ("日本語の本：吾輩は猫である", "SHIFT_JIS"), ("ﾃﾞｻﾞｲﾝQR", "CP932"), ("漢字とﾃﾞｻﾞｲﾝ", "CP932"),
    ("SUB:阿;;", "GB2312"), ("ГЕРОЙ НАШЕГО ВРЕМЕНИ", "CP1251"), ("да", "CP1251"),
  ])
  func qrTextInItsMakersCharacterSet(word: String, charset: String) throws {
    let utf8Path = folder.file("text-utf8.txt")
    try word.write(toFile: utf8Path, atomically: true, encoding: .utf8)
    let bytesPath = folder.file("text.bin")
    _ = try runProgram("/bin/sh", ["-c", "iconv -f UTF-8 -t \"$2\" \"$0\" > \"$1\"", utf8Path, bytesPath, charset])
    let path = folder.file("text.png")
    try tool(["qrencode", "-8", "-s", "6", "-r", bytesPath, "-o", path])
    let symbols = try ImageScanner.scan(path: path)
    #expect(symbols.map(\.text) == [word], "\(charset)")
  }

  @Test func everySymbolOfSeveralBooksInOnePhoto() throws {
    let first = try ean("9785170795857", name: "a.png")
    let second = try ean("9780141439518", name: "b.png")
    let label = try qr("100234", name: "c.png")
    let photo = folder.file("shelf.png")
    try tool(["/usr/bin/convert", first, second, label, "-background", "white", "-gravity", "center", "+append", photo])
    let symbols = try ImageScanner.scan(path: photo)
    #expect(Set(symbols.map(\.text)) == ["9785170795857", "9780141439518", "100234"])
    let lefts = symbols.map(\.box.left)
    #expect(lefts == lefts.sorted(), "reported left to right along the shelf")
  }

  @Test(arguments: [
    ("grey.png", ["-type", "Grayscale"]),
    ("rgb.png", ["-type", "TrueColor"]),
    ("rgba.png", ["-transparent", "white", "-type", "TrueColorAlpha"]),
    ("palette.png", ["-type", "Palette", "-colors", "4"]),
    ("deep.png", ["-depth", "16", "-type", "TrueColor"]),
    ("baseline.jpg", ["-quality", "90"]),
    ("progressive.jpg", ["-interlace", "Plane", "-quality", "85"]),
    ("cmyk.jpg", ["-colorspace", "CMYK", "-quality", "92"]),
    ("rotated.png", ["-background", "white", "-rotate", "7"]),
    // A book photographed on its side or upside down: zbar's scan lines run both ways.
    ("quarter-turn.png", ["-rotate", "90"]), ("upside-down.png", ["-rotate", "180"]),
    ("three-quarters.jpg", ["-rotate", "270", "-quality", "90"]),
    ("smaller.png", ["-resize", "60%"]),
    ("larger.jpg", ["-resize", "250%"]),
    ("noisy.png", ["-seed", "7", "-attenuate", "0.4", "+noise", "Gaussian"]),
    ("low-contrast.png", ["+level", "40%,70%"]),
  ])
  func readsEveryPixelFormatAndVariant(name: String, options: [String]) throws {
    let record = "Инвентарный номер: 100234\nНазвание книги: Герой нашего времени"
    let sourceQR = try qr(record, name: "source-qr.png")
    let sourceEAN = try ean("9785170795857", name: "source-ean.png")
    #expect(
      try ImageScanner.scan(path: convert(sourceQR, options, to: "qr-" + name)).map(\.text) == [record], "\(name)")
    #expect(
      try ImageScanner.scan(path: convert(sourceEAN, options, to: "ean-" + name)).map(\.text) == ["9785170795857"],
      "\(name)")
  }

  @Test func aLargeFrameIsScannedAtHalfSizeFirst() throws {
    let code = try ean("9780141439518", name: "frame-code.png")
    let frame = folder.file("frame.jpg")
    try tool(["/usr/bin/convert", "-size", "1920x1080", "xc:white", code, "-geometry", "+700+400", "-composite", frame])
    let symbols = try ImageScanner.scan(path: frame)
    #expect(symbols.map(\.text) == ["9780141439518"])
    #expect((symbols.first?.box.left ?? 0) > 600, "positions are in the full frame's pixels")
  }

  @Test func theLabelWriterRoundTrips() throws {
    var draft = BookDraft()
    draft.inventoryNumber = "100234"
    draft.isbn = "978-5-17-079585-7"
    draft.authorSurname = "Лермонтов"
    draft.authorInitials = "М. Ю."
    draft.title = "Герой нашего времени"
    draft.publisher = "АСТ"
    draft.city = "Москва"
    draft.year = "2018"
    draft.pages = "414"
    draft.price = "254.50"
    draft.bbk = "84(2Рос=Рус)1"
    draft.authorMark = "Л49"
    let now = Timestamp(iso: "2026-11-30T10:00:00Z")!
    let book = try draft.validated(base: nil, today: now.utcDate, now: now)
    let path = folder.file("label.png")
    try LabelWriter.write(book, to: path)
    let symbols = try ImageScanner.scan(path: path)
    #expect(symbols.count == 1)
    let scanned = try #require(BookRecordLabel.parse(symbols.first?.text ?? ""))
    for field in BookDraft.fields where field != .received && field != .place {
      #expect(scanned[field] == BookDraft(book)[field], "\(field)")
    }
  }

  @Test func badFilesEachSayWhatIsWrong() throws {
    let good = try qr("100234", name: "good.png")
    let goodJPEG = try convert(good, [], to: "good.jpg")
    let data = try Data(contentsOf: URL(fileURLWithPath: good))
    let jpeg = try Data(contentsOf: URL(fileURLWithPath: goodJPEG))
    let empty = folder.file("empty.png")
    try Data().write(to: URL(fileURLWithPath: empty))
    let text = folder.file("notes.png")
    try Data("Герой нашего времени".utf8).write(to: URL(fileURLWithPath: text))
    let shortPNG = folder.file("short.png")
    try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: shortPNG))
    let shortJPEG = folder.file("short.jpg")
    try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: shortJPEG))
    let bomb = folder.file("bomb.png")
    try pngHeader(width: 60_000, height: 60_000).write(to: URL(fileURLWithPath: bomb))
    let blank = folder.file("blank.png")
    try pngHeader(width: 0, height: 0).write(to: URL(fileURLWithPath: blank))
    let line = folder.file("line.png")
    try pngHeader(width: 640, height: 0).write(to: URL(fileURLWithPath: line))

    let missing = folder.file("missing.png")
    #expect(throws: ImageError.missing(missing)) { try ImageScanner.scan(path: missing) }
    #expect(throws: ImageError.unreadable(folder.path)) { try ImageScanner.scan(path: folder.path) }
    #expect(throws: ImageError.empty(empty)) { try ImageScanner.scan(path: empty) }
    #expect(throws: ImageError.notAnImage(text)) { try ImageScanner.scan(path: text) }
    #expect(throws: ImageError.tooLarge(bomb, maximumPixels: ImageScanner.maximumPixels)) {
      try ImageScanner.scan(path: bomb)
    }
    // No pixels is an empty picture, not a large one.
    #expect(throws: ImageError.noPixels(blank)) { try ImageScanner.scan(path: blank) }
    #expect(throws: ImageError.noPixels(line)) { try ImageScanner.scan(path: line) }
    for path in [shortPNG, shortJPEG] {
      do {
        _ = try ImageScanner.scan(path: path)
        Issue.record("\(path) should be refused")
      } catch {
        switch error {
        case .truncated, .corrupt: #expect(error.description.hasPrefix(path))
        default: Issue.record("\(path): \(error)")
        }
      }
    }
    #expect(ImageError.empty(empty).description == "\(empty) is empty (0 bytes); scan or save the picture again")
  }

  /// A PNG that is only a signature and a header claiming the given size: a decompression bomb.
  func pngHeader(width: UInt32, height: UInt32) -> Data {
    func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    let body: [UInt8] = Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0]
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in body {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    let chunk = bigEndian(13) + body + bigEndian(~crc)
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk)
  }
}
