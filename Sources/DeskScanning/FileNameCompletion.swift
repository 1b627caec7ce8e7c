#if canImport(Glibc)
  import Glibc
#endif

/// Completes a file name the way a shell's Tab does: the longest common beginning of the names
/// in the folder that start with what was typed, and the candidates when there are several.
public enum FileNameCompletion {
  public static func complete(_ typed: String) -> (completed: String, candidates: [String]) {
    let home = getenv("HOME").map { String(cString: $0) } ?? ""
    let expanded = typed.hasPrefix("~/") ? home + typed.dropFirst() : typed
    let folder: String
    let stem: String
    if let slash = expanded.lastIndex(of: "/") {
      folder = String(expanded[...slash])
      stem = String(expanded[expanded.index(after: slash)...])
    } else {
      folder = ""
      stem = expanded
    }
    guard let directory = opendir(folder.isEmpty ? "." : folder) else { return (typed, []) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != ".", name != "..", name.hasPrefix(stem), !name.hasPrefix(".") || stem.hasPrefix(".") else {
        continue
      }
      var info = stat()
      let isFolder = stat(folder + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
      names.append(isFolder ? name + "/" : name)
    }
    names.sort()
    guard let first = names.first else { return (typed, []) }
    var common = first
    for name in names.dropFirst() {
      while !name.hasPrefix(common) { common.removeLast() }
    }
    return (folder + common, names.count > 1 ? names : [])
  }
}
