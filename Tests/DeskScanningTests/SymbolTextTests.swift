import DeskDomain
import Foundation
import Testing

@testable import DeskScanning

/// The character set of a QR code's bytes, told from the bytes alone: each text written in the
/// set its makers use, read back as it was written, never as another set's letters.
@Suite struct SymbolTextTests {
  /// The text in `charset`, as iconv (glibc's, another converter than the desk's reading) writes it.
  func iconv(_ text: String, to charset: String) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
    process.arguments = ["-f", "UTF-8", "-t", charset]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](data)
  }

  @Test(arguments: [
    // Japanese: kanji and kana, half-width katakana with voicing marks, and the two mixed.
    ("日本語の本：吾輩は猫である", "CP932"), ("ﾃﾞｻﾞｲﾝQR", "CP932"), ("漢字とﾃﾞｻﾞｲﾝ", "CP932"),
    ("ｺﾝﾋﾟｭｰﾀｰ", "CP932"), ("東京都", "CP932"),
    // Chinese in GB2312.
    ("SUB:阿;;", "GB2312"), ("中华人民共和国", "GB2312"),
    // GB2312 whose bytes are also Shift-JIS of half-width katakana and rare kanji («ﾍｼﾊ鮖ﾝ»).
    ("图书馆借书证 12345", "GB2312"), ("借书证", "GB2312"), ("书号 100234", "GB2312"),
    // Japanese with half-width katakana beside common kanji stays Japanese.
    ("<ﾃﾞｻﾞｲﾝQR> ｲﾗｽﾄ入りｶﾗｰQRｺｰﾄﾞ", "CP932"),
    // Half-width katakana whose bytes read as Russian capitals but for a mark Russian puts nowhere
    // there: ｰ is the byte of °, 本 of «–{», ﾚ of Ъ before Л.
    ("ﾃﾞﾊﾟｰﾄ", "CP932"), ("ﾃﾞﾊﾟｰﾄ123", "CP932"), ("ﾃﾞﾊﾟｰﾄ ﾃﾞﾊﾟｰﾄ", "CP932"), ("ｺｰﾋｰ", "CP932"),
    ("ﾃﾞｰﾀ", "CP932"), ("ﾗｰﾒﾝ", "CP932"), ("ﾃﾚﾋﾞ", "CP932"), ("ﾃﾞ本", "CP932"), ("本ﾃﾞ", "CP932"), ("本", "CP932"),
    // Russian in Windows-1251, in every case, with its marks; Ukrainian too.
    ("Герой нашего времени", "CP1251"), ("ГЕРОЙ НАШЕГО ВРЕМЕНИ", "CP1251"), ("Цена: 254 р.", "CP1251"),
    ("«Мцыри» — поэма", "CP1251"), ("№ 5, в 2 т.", "CP1251"), ("Київ", "CP1251"), ("да", "CP1251"),
    ("ISBN 978-5-17-079585-7 Лермонтов М. Ю.", "CP1251"), ("СССР", "CP1251"), ("ТОЛСТОЙ Л. Н.", "CP1251"),
    ("Чехов А. П.", "CP1251"), ("25 см", "CP1251"), ("1941-1945 гг.", "CP1251"), ("ЕЁ", "CP1251"), ("Её", "CP1251"),
    ("Generation «П»", "CP1251"), ("ВІЙНА І МИР", "CP1251"), ("№ ЧБ-123", "CP1251"),
    ("Температура 20° – норма", "CP1251"), ("1941–1945", "CP1251"), ("ПОДЪЕЗД", "CP1251"), ("объём", "CP1251"),
    ("Т. 1 — 2", "CP1251"),
    // Latin-1, the QR standard's own default.
    ("Café", "LATIN1"), ("Müller", "LATIN1"), ("Straße", "LATIN1"),
  ])
  func textComesBackAsWritten(text: String, charset: String) throws {
    let encoded = try iconv(text, to: charset)
    #expect(!encoded.isEmpty)
    #expect(SymbolText.decode(encoded) == text, "\(charset): \(encoded)")
  }

  /// A byte-order mark before a code and line breaks after it are no part of it.
  @Test func aMarkAndLineBreaksAroundACodeGo() {
    #expect(SymbolText.decode([0xEF, 0xBB, 0xBF] + Array("100001".utf8)) == "100001")
    #expect(SymbolText.decode(Array("100001\r\n".utf8)) == "100001")
  }

  @Test func utf8StaysUTF8() {
    for text in ["Война и мир", "ﾃﾞｻﾞｲﾝ", "阿", "Brontë"] { #expect(SymbolText.decode(Array(text.utf8)) == text) }
  }
}
