import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation

/// The lines of a store error, or a note that there was none.
func errorLines(_ body: () throws -> Void) -> [String] {
  do {
    try body()
    return ["no error"]
  } catch let error as StoreError {
    return error.englishLines
  } catch {
    return ["\(error)"]
  }
}
