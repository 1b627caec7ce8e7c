import DeskTestSupport
import Foundation
import Testing

/// The README's pictures are made by a script from the real desk in tmux: it must keep working.
@Suite struct ScreenshotTests {
  @Test func theScriptDrawsEachScreenOfTheDeskIntoAPicture() throws {
    let folder = TemporaryFolder()
    let made = try runProgram(
      packageRoot + "/scripts/screenshots", ["--program", circdeskPath, "--out", folder.path, "--without-central"])
    #expect(made.status == 0, "\(made.errors)")
    for name in ["home", "books", "reader", "desk"] {
      let size = try runProgram("/usr/bin/identify", ["-format", "%w×%h %z", folder.file("\(name).png")]).output
      #expect(size == "1024×624 8", "\(name): \(size)")
    }
    // Colour where the desk shows it: the books list's overdue rows are red.
    let red = try runProgram(
      "/usr/bin/convert",
      [folder.file("books.png"), "-fill", "black", "+opaque", "#cd3131", "-format", "%[fx:mean]", "info:"]
    ).output
    #expect((Double(red) ?? 0) > 0.001, "red pixels: \(red)")
  }
}
