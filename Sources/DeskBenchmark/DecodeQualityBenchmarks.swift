import CImaging
import DeskScanning

#if canImport(Glibc)
  import Glibc
#endif

/// How many likenesses of real photos the desk reads rightly, wrongly and not at all, beside
/// `zbarimg` on the same files: codes made by qrencode and zint, then tilted, blurred, washed
/// out, darkened, noised, rotated, tinted, shrunk and saved as poor JPEGs by ImageMagick, and a
/// few pictures that hold no code at all. The set is made once in `folder`, with a manifest of
/// what each file holds (`manifest.tsv`: file, then the expected text, empty for none).
public enum DecodeQualityBenchmarks {
  /// The codes: QR texts as labels and publishers print them (in UTF-8, and in the character
  /// sets Japanese and Chinese encoders write: `qr-` and the set), ISBN barcodes (one with its
  /// price add-on), and Code 128 with Latin-1 letters.
  static let codes: [(name: String, kind: String, text: String)] = [
    ("sjis", "qr-CP932", "ﾃﾞｻﾞｲﾝQR 漢字"),
    ("gb2312", "qr-GB2312", "SUB:阿;;"),
    ("latin1", "code128", "óóóó1234óóabózz"),
    ("record", "qr", "Инвентарный номер: 100234\nФамилия автора: Лермонтов\nНазвание книги: Герой нашего времени"),
    ("short", "qr", "Мцыри"),
    ("url", "qr", "https://example.org/catalogue/9785170795857"),
    ("isbn1", "ean", "9785170795857"),
    ("isbn2", "ean", "9780141439518"),
    ("isbn3", "ean", "9785389062061+25000"),
  ]

  /// What is done to each code: ImageMagick options, and the file's extension.
  static let distortions: [(name: String, options: [String], ext: String)] = [
    ("plain", [], "png"),
    ("tilted", ["-background", "white", "-virtual-pixel", "white", "+distort", "SRT", "0.85,14"], "png"),
    (
      "perspective",
      [
        "-background", "white", "-virtual-pixel", "white", "+distort", "Perspective",
        "0,0 20,30  %[fx:w],0 %[fx:w-30],10  0,%[fx:h] 0,%[fx:h-10]  %[fx:w],%[fx:h] %[fx:w-10],%[fx:h-40]",
      ], "png"
    ),
    ("blurred", ["-blur", "0x2"], "png"),
    ("washed-out", ["+level", "45%,85%"], "png"),
    ("dark", ["+level", "0%,35%"], "png"),
    ("noisy", ["-attenuate", "0.7", "+noise", "Gaussian"], "png"),
    ("rotated", ["-background", "white", "-rotate", "90"], "png"),
    ("tinted", ["+level-colors", "rgb(200,0,0),rgb(0,150,0)"], "png"),
    ("small", ["-resize", "40%"], "png"),
    ("poor-jpeg", ["-blur", "0x0.8", "-quality", "7"], "jpg"),
    ("heavy-blur", ["-blur", "0x3"], "png"),
    ("motion-blur", ["-motion-blur", "0x6+20"], "png"),
    (
      "glare",
      [
        "(", "+clone", "-sparse-color", "Barycentric", "0,0 white %[fx:w],0 gray20", ")", "-compose", "screen",
        "-composite",
      ], "png"
    ),
    ("tiny", ["-resize", "25%"], "png"),
    ("tinier", ["-resize", "18%"], "png"),
    (
      "everything",
      [
        "-background", "white", "+distort", "SRT", "0.9,8", "-blur", "0x1.2", "+level", "20%,80%",
        "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "25",
      ], "jpg"
    ),
  ]

  /// `few`: each code plain only (14 pictures instead of 158, made by ImageMagick each in a new
  /// folder), for a run that checks the benchmark works rather than measures.
  public static func run(folder: String, few: Bool = false) throws -> [Measurement] {
    let samples = try makeSet(folder: few ? folder + "-few" : folder, distortions: few ? 1 : distortions.count)
    var deskRight = 0, deskWrong = 0, deskMissed = 0, deskFalse = 0
    var zbarRight = 0, zbarWrong = 0, zbarMissed = 0, zbarFalse = 0
    var deskReadsZbarMisses = 0, zbarMissesTotal = 0, zbarReadsDeskMisses = 0
    var deskTimes: [Double] = []
    var zbarTimes: [Double] = []
    // zbar's own time (load and one scan at every line, in this process) beside the desk's whole
    // decode, on the images zbarimg reads: what the desk's retries cost where they are not needed.
    var zbarOwn: [Double] = []
    var deskWhereZbarReads: [Double] = []
    var conversions = [0, 0, 0]
    let zbarFile = "\(folder)/zbarimg.out"
    // Per code (the file's name before its distortion): the desk's and zbarimg's right, wrong
    // and missed reads, and the desk's times.
    var groups: [String: (desk: [Int], zbar: [Int], times: [Double])] = [:]
    for (file, expected) in samples {
      var texts: [String] = []
      deskTimes += time(1) { texts = ((try? ImageScanner.scan(path: file)) ?? []).map(\.text) }
      let group = String(file.split(separator: "/").last?.split(separator: "-").first ?? "")
      let zbarRun = runChild(["zbarimg", "-q", "--raw", "-Sbinary", file], output: zbarFile)
      zbarTimes.append(zbarRun.milliseconds)
      let zbarOutput = readText(zbarFile)
      let zbarTexts = zbarOutput.split(separator: "\n").map { String($0) }
      guard let expected else {
        deskFalse += texts.count
        zbarFalse += zbarTexts.count
        continue
      }
      let main = expected.split(separator: "+").first.map(String.init) ?? expected
      let deskOK = texts.contains(main)
      let zbarOK = zbarOutput.contains(main)
      if deskOK { deskRight += 1 } else if texts.isEmpty { deskMissed += 1 } else { deskWrong += 1 }
      if zbarOK { zbarRight += 1 } else if zbarTexts.isEmpty { zbarMissed += 1 } else { zbarWrong += 1 }
      var counts = groups[group] ?? ([0, 0, 0], [0, 0, 0], [])
      counts.desk[deskOK ? 0 : texts.isEmpty ? 2 : 1] += 1
      counts.zbar[zbarOK ? 0 : zbarTexts.isEmpty ? 2 : 1] += 1
      counts.times.append(deskTimes.last ?? 0)
      groups[group] = counts
      if !zbarOK {
        zbarMissesTotal += 1
        if deskOK { deskReadsZbarMisses += 1 }
      } else if !deskOK {
        zbarReadsDeskMisses += 1
      }
      let reads = conversionsReading(file, Array(main.utf8))
      for index in conversions.indices where reads[index] { conversions[index] += 1 }
      guard zbarOK else { continue }
      zbarOwn += time(3) { _ = conversionsReading(file, Array(main.utf8), onlyLuma: true) }
      deskWhereZbarReads += time(3) { _ = try? ImageScanner.scan(path: file) }
    }
    let coded = samples.filter { $0.1 != nil }.count
    let empty = samples.count - coded
    let perCode = groups.keys.sorted().map { name in
      let counts = groups[name] ?? ([0, 0, 0], [0, 0, 0], [])
      return Measurement(
        scenario: "  \(name): desk right \(counts.desk[0]), wrong \(counts.desk[1]), missed \(counts.desk[2]); "
          + "zbarimg right \(counts.zbar[0]), wrong \(counts.zbar[1]), missed \(counts.zbar[2]) — time per image",
        samples: counts.times)
    }
    return [
      Measurement(
        scenario:
          "photos' likenesses read right: desk \(deskRight) of \(coded) (wrong \(deskWrong), missed \(deskMissed)), "
          + "zbarimg \(zbarRight) (wrong \(zbarWrong), missed \(zbarMissed)); of zbarimg's \(zbarMissesTotal) misses "
          + "the desk reads \(deskReadsZbarMisses); of its reads the desk misses \(zbarReadsDeskMisses); "
          + "codes on \(empty) pictures without one: desk \(deskFalse), zbarimg \(zbarFalse) — time per image",
        samples: deskTimes, baselineName: "zbarimg (a process)", baselineSamples: zbarTimes),
      Measurement(
        scenario: "the same, one conversion to grey each, zbar alone: luma reads \(conversions[0]), "
          + "the channel with the most contrast \(conversions[1]), luma stretched by blocks \(conversions[2]) — "
          + "the desk's time where zbarimg reads",
        samples: deskWhereZbarReads, baselineName: "zbar's own (load, one scan)", baselineSamples: zbarOwn),
    ] + perCode
  }

  /// Which of three greys zbar alone reads `expected` in: luma, the channel with the most
  /// contrast (luma again for a grey image), luma stretched block by block.
  static func conversionsReading(_ file: String, _ expected: [UInt8], onlyLuma: Bool = false) -> [Bool] {
    func reads(_ image: inout cimg_gray) -> Bool {
      var found = cimg_scan(&image, 1)
      defer { cimg_free_symbols(&found) }
      return (0..<Int(found.count)).contains { index in
        let symbol = found.symbols[index]
        return symbol.data.map { Array(UnsafeBufferPointer(start: $0, count: symbol.length)) } == expected
      }
    }
    var luma = cimg_gray()
    var message = [CChar](repeating: 0, count: 128)
    guard cimg_load(file, 40_000_000, &luma, &message, message.count) == CIMG_OK else { return [false, false, false] }
    defer { cimg_free(&luma) }
    let byLuma = reads(&luma)
    if onlyLuma { return [byLuma, false, false] }
    var channels = [cimg_gray(), cimg_gray(), cimg_gray()]
    var colour: Int32 = 0
    _ = channels.withUnsafeMutableBufferPointer { cimg_load_channels(file, 40_000_000, 1, $0.baseAddress, &colour) }
    defer { for index in channels.indices { cimg_free(&channels[index]) } }
    var byChannel = byLuma
    if colour != 0, let best = channels.indices.max(by: { cimg_spread(&channels[$0]) < cimg_spread(&channels[$1]) }) {
      byChannel = reads(&channels[best])
    }
    var stretched = cimg_stretch(&luma, 32)
    defer { cimg_free(&stretched) }
    let byStretch = stretched.pixels != nil && reads(&stretched)
    return [byLuma, byChannel, byStretch]
  }

  /// The set, made when its manifest is missing: each code under each distortion, and pictures
  /// without a code.
  static func makeSet(folder: String, distortions count: Int) throws -> [(String, String?)] {
    mkdir(folder, 0o755)
    let manifest = "\(folder)/manifest.tsv"
    if access(manifest, F_OK) == 0 {
      let text = readText(manifest)
      return text.split(separator: "\n").map { line in
        let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let expected = parts.count > 1 && !parts[1].isEmpty ? parts[1].replacingEscapes() : nil
        return ("\(folder)/\(parts[0])", expected)
      }
    }
    var lines: [String] = []
    var result: [(String, String?)] = []
    for code in codes {
      let source = "\(folder)/\(code.name)-source.png"
      let made: Int32
      switch code.kind {
      case "qr": made = DecodeBenchmarks.runQuietly(["qrencode", "-s", "6", "-o", source, code.text])
      case "code128":
        made = DecodeBenchmarks.runQuietly(["zint", "-b", "20", "--scale", "3", "-d", code.text, "-o", source])
      case let kind where kind.hasPrefix("qr-"):
        // The text's bytes in the set, as iconv writes them, in byte mode.
        let text = "\(folder)/\(code.name).txt"
        write(code.text, to: text)
        let charset = String(kind.dropFirst(3))
        made = DecodeBenchmarks.runQuietly([
          "/bin/sh", "-c", "iconv -f UTF-8 -t \"$1\" \"$0\" | qrencode -8 -s 6 -o \"$2\"", text, charset, source,
        ])
      default:
        made = DecodeBenchmarks.runQuietly(["zint", "-b", "EANX", "--scale", "3", "-d", code.text, "-o", source])
      }
      guard made == 0 else { throw BenchmarkError.notDecoded(source) }
      // On a page, as a photo has it: the code with room around it.
      let page = "\(folder)/\(code.name)-page.png"
      guard
        DecodeBenchmarks.runQuietly([
          "/usr/bin/convert", source, "-bordercolor", "white", "-border", "60", "-resize", "640x480>", page,
        ]) == 0
      else { throw BenchmarkError.notDecoded(page) }
      for distortion in distortions.prefix(count) {
        let name = "\(code.name)-\(distortion.name).\(distortion.ext)"
        let path = "\(folder)/\(name)"
        guard DecodeBenchmarks.runQuietly(["/usr/bin/convert", page] + distortion.options + [path]) == 0 else {
          throw BenchmarkError.notDecoded(path)
        }
        lines.append("\(name)\t\(code.text.escapingLineBreaks())")
        result.append((path, code.text))
      }
    }
    for (index, options) in [
      ["-size", "640x480", "-seed", "7", "plasma:"], ["-size", "640x480", "gradient:white-gray40"],
      // A perforated grille, and bars that look like a barcode and are none.
      ["-size", "640x480", "pattern:circles", "-negate"], ["-size", "640x480", "pattern:hs_cross"],
      [
        "-size", "640x480", "xc:white", "-fill", "black", "-draw",
        "rectangle 100,100 104,300 rectangle 110,100 111,300 rectangle 120,100 126,300 rectangle 131,100 133,300 "
          + "rectangle 140,100 141,300 rectangle 150,100 156,300",
      ],
    ].enumerated() {
      let name = "none-\(index + 1).png"
      guard DecodeBenchmarks.runQuietly(["/usr/bin/convert"] + options + ["\(folder)/\(name)"]) == 0 else {
        throw BenchmarkError.notDecoded(name)
      }
      lines.append("\(name)\t")
      result.append(("\(folder)/\(name)", nil))
    }
    write(lines.joined(separator: "\n") + "\n", to: manifest)
    return result
  }

  static func write(_ text: String, to path: String) {
    guard let file = fopen(path, "wb") else { return }
    fputs(text, file)
    fclose(file)
  }
}

extension String {
  /// One line in the manifest: line breaks as `\n`.
  func escapingLineBreaks() -> String {
    replacingAll("\n", with: "\\n")
  }

  func replacingEscapes() -> String {
    var result = ""
    var escaped = false
    for character in self {
      if escaped {
        result.append(character == "n" ? "\n" : character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self { if character == target { result += replacement } else { result.append(character) } }
    return result
  }
}
