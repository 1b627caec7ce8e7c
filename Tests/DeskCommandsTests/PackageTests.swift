import DeskTestSupport
import Foundation
import Testing

/// The Debian package as an administrator gets it: built by `scripts/package` from the programs
/// this test run built, unpacked into a folder of its own, and run from there.
@Suite struct PackageTests {
  static let hasDpkg =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-shlibdeps")

  @Test(
    .enabled(if: hasDpkg, "dpkg-deb and dpkg-shlibdeps are missing (apt-get install dpkg-dev): no package is built"))
  func thePackageUnpackedRunsTheDeskItsDecoderAndItsManual() throws {
    let folder = TemporaryFolder()
    let build = URL(fileURLWithPath: circdeskPath).deletingLastPathComponent().path
    let made = try runProgram(packageRoot + "/scripts/package", ["--from", build, "--out", folder.path, "--quick"])
    #expect(made.status == 0, "\(made.errors)")
    let deb = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(deb.hasSuffix("_amd64.deb"), "\(made.output)")
    // lintian, where it is installed, finds no error.
    #expect(!made.errors.split(separator: "\n").contains { $0.hasPrefix("E: ") }, "\(made.errors)")
    let root = folder.file("root")
    #expect(try runProgram("/usr/bin/dpkg-deb", ["-x", deb, root]).status == 0)
    let fields = try runProgram("/usr/bin/dpkg-deb", ["-f", deb, "Version", "Depends"]).output
    #expect(fields.contains("Version: 0.1.0-1"))
    for library in [
      "libsqlite3-0", "libncursesw6", "libzbar0", "libpq5", "libargon2-1", "libssl3", "libyaz5", "libxml2",
    ] {
      #expect(fields.contains(library), "Depends names \(library)")
    }
    #expect(!fields.contains("swift"), "never the Swift toolchain")

    let circdesk = root + "/usr/bin/circdesk"
    #expect(try runProgram(circdesk, ["--version"]).output == "circdesk 0.1.0\n")
    let library = folder.file("library.sqlite")
    #expect(try runProgram(circdesk, ["demo", "--db", library]).status == 0)
    // A DataMatrix, which zbar does not read: the second decoder found where the package put it.
    let image = folder.file("datamatrix.png")
    #expect(
      try runProgram(
        "/usr/bin/zint",
        ["-b", "71", "--scale", "4", "--whitesp", "10", "--vwhitesp", "10", "-d", "9785170795857", "-o", image]
      ).status == 0)
    let scanned = try runProgram(circdesk, ["scan", image, "--db", library], environment: ["CIRCDESK_ZXING": ""])
    #expect(scanned.output.contains("DataMatrix") && scanned.output.contains("978-5-17-079585-7"), "\(scanned.errors)")
    let manual = try runProgram(
      "/usr/bin/man", ["-l", root + "/usr/share/man/man1/circdesk-sip2-serve.1.gz"],
      environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
    #expect(manual.output.contains("circdesk sip2 serve"), "\(manual.errors)")
    for file in [
      "usr/share/man/man1/circdesk.1.gz", "usr/share/bash-completion/completions/circdesk",
      "usr/share/fish/vendor_completions.d/circdesk.fish", "usr/share/zsh/vendor-completions/_circdesk",
      "usr/lib/systemd/system/circdesk-sip2.service",
      "usr/share/doc/circdesk/copyright", "usr/share/doc/circdesk/changelog.Debian.gz",
    ] {
      #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
    }
    // Nothing in it links the Swift runtime at run time.
    for program in [circdesk, root + "/usr/lib/circdesk/circdesk-zxing"] {
      let linked = try runProgram("/usr/bin/ldd", [program]).output
      #expect(
        !linked.contains("libswift") && !linked.contains("libdispatch") && !linked.contains("not found"), "\(linked)")
    }
  }
}
