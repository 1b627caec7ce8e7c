/// The demo library's data, compiled into the program so that `circdesk demo` works wherever
/// the binary is copied. Tab-separated, one record a line; lines starting with `#` are comments.
public enum DemoAssets {
  public static var books: String { String(decoding: PackageResources.books_tsv, as: UTF8.self) }
  public static var readers: String { String(decoding: PackageResources.readers_tsv, as: UTF8.self) }
  public static var loans: String { String(decoding: PackageResources.loans_tsv, as: UTF8.self) }
}
