import DeskDomain
import DeskScanning

#if canImport(Glibc)
  import Glibc
#endif

/// How many real photographs of codes the desk reads rightly, wrongly and not at all, beside
/// zbarimg, in the layout of ZXing's black-box test photos (`core/src/test/resources/blackbox`
/// of github.com/zxing/zxing, Apache-2.0: a folder per symbology and set, each picture beside a
/// `.txt` of its text; the `falsepositives` folders hold pictures without a code). The photos stay
/// where they are: the benchmark is given their folder and reads the symbologies a library meets.
public enum PhotoSetBenchmarks {
  /// The sets read: EAN-13 and EAN-8 (ISBNs), Code 128 and Codabar (inventory numbers and reader
  /// tickets), QR codes (labels), and photos with no code.
  public static let sets = [
    "ean13-1", "ean13-2", "ean13-3", "ean13-4", "ean13-5", "ean8-1", "code128-1", "code128-2", "code128-3",
    "codabar-1", "qrcode-1", "qrcode-2", "qrcode-3", "qrcode-4", "qrcode-5", "qrcode-6", "falsepositives-2",
  ]

  public static func run(folder: String) throws -> [Measurement] {
    var rows: [Measurement] = []
    var total = (desk: [0, 0, 0], zbar: [0, 0, 0], deskFalse: 0, zbarFalse: 0, pictures: 0)
    var allTimes: [Double] = []
    var allZbarTimes: [Double] = []
    let zbarFile = "/tmp/circdesk-bench-photos-\(getpid()).out"
    defer { unlink(zbarFile) }
    for set in sets {
      let pictures = files(in: "\(folder)/\(set)").filter { file in
        [".png", ".jpg", ".jpeg"].contains { file.lowercased().hasSuffix($0) }
      }
      guard !pictures.isEmpty else { throw BenchmarkError.scenarioFailed("\(folder)/\(set) holds no pictures") }
      var desk = [0, 0, 0]
      var zbar = [0, 0, 0]
      var (deskFalse, zbarFalse) = (0, 0)
      var times: [Double] = []
      for picture in pictures.sorted() {
        var texts: [String] = []
        times += time(1) { texts = ((try? ImageScanner.scan(path: picture)) ?? []).map(\.text) }
        let zbarRun = runChild(["zbarimg", "-q", "--raw", "-Sbinary", picture], output: zbarFile)
        allZbarTimes.append(zbarRun.milliseconds)
        let zbarTexts = readText(zbarFile).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let base = picture.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        guard !set.hasPrefix("falsepositives"), access(base + ".txt", R_OK) == 0 else {
          deskFalse += texts.count
          zbarFalse += zbarTexts.count
          continue
        }
        let expected = comparable(readText(base + ".txt"))
        func reads(_ text: String) -> Bool {
          let read = comparable(text)
          // Codabar's start and stop letters are printed by zbar and left out by ZXing's files.
          return read == expected
            || (set.hasPrefix("codabar") && read.count > 2 && read.dropFirst().dropLast() == expected)
        }
        desk[texts.contains(where: reads) ? 0 : texts.isEmpty ? 2 : 1] += 1
        zbar[zbarTexts.contains(where: reads) ? 0 : zbarTexts.isEmpty ? 2 : 1] += 1
      }
      allTimes += times
      for index in 0..<3 {
        total.desk[index] += desk[index]
        total.zbar[index] += zbar[index]
      }
      total.deskFalse += deskFalse
      total.zbarFalse += zbarFalse
      total.pictures += pictures.count
      let outcome =
        set.hasPrefix("falsepositives")
        ? "codes on \(pictures.count) pictures without one: desk \(deskFalse), zbarimg \(zbarFalse)"
        : "desk right \(desk[0]), wrong \(desk[1]), missed \(desk[2]); "
          + "zbarimg right \(zbar[0]), wrong \(zbar[1]), missed \(zbar[2])"
      rows.append(Measurement(scenario: "  \(set): \(outcome) — time per picture", samples: times))
    }
    let coded = total.desk.reduce(0, +)
    let percent = coded == 0 ? 0 : Double(total.desk[0] * 1000 / coded) / 10
    let summary = Measurement(
      scenario: "real photos (ZXing's black-box sets) read right: desk \(total.desk[0]) of \(coded) (\(percent) %; "
        + "wrong \(total.desk[1]), missed \(total.desk[2])), zbarimg \(total.zbar[0]) (wrong \(total.zbar[1]), "
        + "missed \(total.zbar[2])); codes on \(total.pictures - coded) pictures without one: desk "
        + "\(total.deskFalse), zbarimg \(total.zbarFalse) — time per picture",
      samples: allTimes, baselineName: "zbarimg (a process)", baselineSamples: allZbarTimes)
    return [summary] + rows
  }

  /// Text as ZXing's files hold it: line ends as `\n`, no white space at either end (the desk
  /// trims a code's).
  static func comparable(_ text: String) -> String {
    text.split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n").trimmingWhitespace()
  }

  static func files(in folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append("\(folder)/\(name)") }
    }
    return names
  }
}
