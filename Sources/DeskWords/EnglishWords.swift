import DeskDomain
import DeskStorage

/// The library's words in English.
public struct EnglishWords: LibraryWords {
  public init() {}

  public func messages(_ error: StoreError) -> [String] { error.lines }
  public func label(_ field: Field) -> String { field.label }
  public func statusName(_ status: CopyStatus) -> String { status.label }
  public func conflictKind(_ kind: ConflictKind) -> String { kind.title }
}
