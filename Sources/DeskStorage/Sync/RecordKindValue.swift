import DeskDomain

/// A kind of record is stored by its name (`book`, `loan`…), as changes name it.
extension RecordKind: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(rawValue) }
}
