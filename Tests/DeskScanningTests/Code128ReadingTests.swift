import CImaging
import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskScanning

/// The desk's own reading of Code 128 (`Code128`, along the lines zbar's scanner measures), on
/// labels zint printed: every symbol character of the three code sets, FNC4's single and latched
/// Latin-1, and labels blurred as a moving hand blurs them.
@Suite struct Code128ReadingTests {
  let folder = TemporaryFolder()

  func label(_ text: String, name: String, escapes: Bool = false, then distortion: [String] = []) throws -> String {
    var path = folder.file(name + ".png")
    let made = try runProgram(
      "/usr/bin/env", ["zint", "-b", "20", "--scale", "2"] + (escapes ? ["--esc"] : []) + ["-d", text, "-o", path])
    #expect(made.status == 0, "\(made.errors)")
    if !distortion.isEmpty {
      let distorted = folder.file(name + "-distorted.png")
      let converted = try runProgram("/usr/bin/convert", [path] + distortion + [distorted])
      #expect(converted.status == 0, "\(converted.errors)")
      path = distorted
    }
    return path
  }

  /// The desk's own reading of the one Code 128 zbar finds in the picture.
  func ownReading(_ path: String) throws -> [UInt8]? {
    let zbar = try ImageScanner.scan(path: path).filter { $0.symbology == "CODE-128" }
    #expect(zbar.count == 1, "zbar read \(zbar.map(\.text))")
    guard let symbol = zbar.first else { return nil }
    var image = cimg_gray()
    var message = [CChar](repeating: 0, count: 256)
    #expect(cimg_load(path, 40_000_000, &image, &message, message.count) == CIMG_OK)
    defer { cimg_free(&image) }
    // As zbar reads it: the high bits cleared.
    return ImageScanner.ownCode128(in: &image, at: symbol.box, read: symbol.bytes.map { $0 & 0x7F })
  }

  @Test func everySymbolCharacterOfTheThreeSetsIsRead() throws {
    let printable = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
    // Set B's 95 printable characters, in labels of the symbology's length.
    for (part, start) in stride(from: 0, to: printable.count, by: 40).enumerated() {
      let text = String(printable[start..<min(printable.count, start + 40)])
      #expect(try ownReading(label(text, name: "ascii-\(part)")) == Array(text.utf8))
    }
    // Set C's hundred digit pairs.
    for (part, range) in [0..<50, 50..<100].enumerated() {
      let digits = range.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
      #expect(try ownReading(label(digits, name: "digits-\(part)")) == Array(digits.utf8))
    }
    // Set A's control characters.
    #expect(try ownReading(label(#"INV\t7\r\n"#, name: "controls", escapes: true)) == Array("INV\t7\r\n".utf8))
  }

  /// FNC4 before one character, and twice to latch a run of them: the high bits zbar drops.
  @Test func latin1LettersKeepTheirHighBit() throws {
    for (name, text) in [("single", "óóóó1234óóabózz"), ("latched", "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏ"), ("mixed", "Müller 12")] {
      let latin1 = text.unicodeScalars.map { UInt8($0.value) }
      #expect(try ownReading(label(text, name: name)) == latin1, "\(text)")
    }
  }

  /// A label photographed as the decode-quality benchmark's likenesses are: on a page, at 640
  /// pixels, then distorted.
  func photographed(_ text: String, name: String, _ distortion: [String]) throws -> String {
    let source = folder.file(name + "-source.png")
    let made = try runProgram("/usr/bin/env", ["zint", "-b", "20", "--scale", "3", "-d", text, "-o", source])
    #expect(made.status == 0, "\(made.errors)")
    let path = folder.file(name + ".png")
    let converted = try runProgram(
      "/usr/bin/convert",
      [source, "-bordercolor", "white", "-border", "60", "-resize", "640x480>"] + distortion + [path])
    #expect(converted.status == 0, "\(converted.errors)")
    return path
  }

  /// Blurred sideways by a moving hand, a label zbar reads without its high bits and ZXing not
  /// at all: the desk's own reading, on zbar's edges, gives its Latin-1 letters.
  @Test func aLabelBlurredByMotionKeepsItsLetters() throws {
    let text = "óóóó1234óóabózz"
    let blurred = try photographed(text, name: "moving", ["-motion-blur", "0x6+20"])
    #expect(try ownReading(blurred) == text.unicodeScalars.map { UInt8($0.value) })
    #expect(try ImageScanner.scan(path: blurred).map(\.text) == [text])
    #expect(
      SecondDecoder.decode(path: blurred).isEmpty, "ZXing reads it now: this test no longer tests the own reading")
  }

  /// Under glare, faint on one side: read whole (by ZXing with its rows' contrast stretched, where
  /// the desk's own reading does not).
  @Test func aLabelUnderGlareKeepsItsLetters() throws {
    let text = "óóóó1234óóabózz"
    let glare = try photographed(
      text, name: "glare",
      [
        "(", "+clone", "-sparse-color", "Barycentric", "0,0 white %[fx:w],0 gray20", ")", "-compose", "screen",
        "-composite",
      ])
    #expect(try ImageScanner.scan(path: glare).map(\.text) == [text])
  }

  /// Blurred past what anything reads whole, a label with Latin-1 letters is read right or not at
  /// all: zbar's read without its letters' high bits, which nothing confirms, is no code.
  @Test func aBlurredLabelIsReadRightOrNotAtAll() throws {
    var right = 0
    for (number, text) in ["Müller 12", "óóóó1234óóabózz", "Café 77"].enumerated() {
      for (index, blur) in [
        ["-blur", "0x2.6"], ["-blur", "0x4"], ["-motion-blur", "0x5+0"], ["-motion-blur", "0x7+0"],
      ]
      .enumerated() {
        let path = try label(
          text, name: "blur-\(number)-\(index)", then: ["-bordercolor", "white", "-border", "30"] + blur)
        let read = try ImageScanner.scan(path: path).map(\.text)
        #expect(read.isEmpty || read == [text], "\(text) \(blur): \(read)")
        if read == [text] { right += 1 }
      }
    }
    // zbar reads five of them without the letters' high bits; the desk's reading confirms them.
    #expect(right >= 5, "\(right) read right")
  }
}
