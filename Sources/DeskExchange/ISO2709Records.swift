/// The records of an ISO 2709 file, each found by its end (0x1D) rather than by the length its
/// leader says: a record whose leader lies costs that record only, and the next is found all
/// the same (as MARC tools read a file). Line breaks some tools put between records are passed
/// over. One thread reads it at a time.
final class ISO2709Records {
  private let file: ByteReader
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where `buffer[start]` stands in the file.
  private var offset = 0
  private var finished = false

  init(file: ByteReader) {
    self.file = file
  }

  /// The file's length, when it is a regular file.
  var fileBytes: Int? { file.fileBytes }

  /// A record: its bytes (with the 0x1D that ends it, when it does) and where it starts.
  struct Record {
    var bytes: [UInt8]
    var offset: Int
    /// False for the file's last bytes when no 0x1D ends them: a record cut short.
    var isWhole: Bool
  }

  func next() -> Record? {
    while true {
      // Line breaks between records.
      while start < buffer.count, buffer[start] == 0x0A || buffer[start] == 0x0D {
        start += 1
        offset += 1
      }
      if let end = buffer[start...].firstIndex(of: 0x1D) {
        let record = Record(bytes: Array(buffer[start...end]), offset: offset, isWhole: true)
        offset += end + 1 - start
        start = end + 1
        return record
      }
      guard !finished else {
        guard start < buffer.count else { return nil }
        let record = Record(bytes: Array(buffer[start...]), offset: offset, isWhole: false)
        offset += buffer.count - start
        start = buffer.count
        return record
      }
      buffer.removeFirst(start)
      start = 0
      let read = file.read(65_536)
      if read.isEmpty { finished = true }
      buffer += read
    }
  }
}
