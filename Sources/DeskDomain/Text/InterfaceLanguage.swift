/// The language the desk speaks: `--lang en|ru`, else the locale (`LC_ALL`, `LC_MESSAGES`,
/// `LANG`), English when none says Russian.
public enum InterfaceLanguage: String, CaseIterable, Sendable {
  case english = "en"
  case russian = "ru"

  public init(option: String?, environment: [String: String]) {
    if let option, let language = InterfaceLanguage(rawValue: String(option.prefix(2)).lowercased()) {
      self = language
      return
    }
    let locale =
      [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
      .compactMap { $0 }.first { !$0.isEmpty } ?? ""
    self = locale.hasPrefix("ru") ? .russian : .english
  }
}
