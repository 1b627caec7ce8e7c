#if canImport(Glibc)
  import Glibc
#endif

/// Creates the folder and any missing folders above it, as `mkdir -p` does; a folder that is
/// already there is fine.
public func makeFolder(_ path: String) throws(FileError) {
  var prefix = path.hasPrefix("/") ? "/" : ""
  for part in path.split(separator: "/") {
    prefix += part
    if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
      throw .cannotWrite(prefix, String(cString: strerror(errno)))
    }
    prefix += "/"
  }
}

/// A code (an inventory number, a ticket) as a file name in a folder: '/' and NUL, which no file
/// name may hold, become '_'.
public func fileName(for code: String) -> String {
  String(code.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
}
