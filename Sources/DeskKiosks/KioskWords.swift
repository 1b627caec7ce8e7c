import DeskDomain
import DeskStorage

/// What a kiosk's screen says that the desk's own words do not: in the kiosk's language.
struct KioskWords {
  let language: OverdueNotice.Language

  init(_ language: OverdueNotice.Language) {
    self.language = language
  }

  /// A copy returned at the kiosk that a hold waits for: it goes to the hold shelf.
  func holdShelf(_ trap: HoldTrap) -> String {
    switch language {
    case .english: return "Reserved for another reader: leave the book at the desk."
    case .russian: return "Книгу ждёт другой читатель: оставьте её на кафедре выдачи."
    }
  }

  /// A copy that is out to another reader, or waits for one.
  var notAvailable: String {
    switch language {
    case .english: return "This copy is not available to you: please take it to the library desk."
    case .russian: return "Этот экземпляр вам сейчас не выдаётся: обратитесь на кафедру выдачи."
    }
  }

  /// A code that names several copies (an ISBN): the kiosk scans the copy's own label.
  var scanTheCopy: String {
    switch language {
    case .english: return "Please scan the library label of the copy, not the book's barcode."
    case .russian: return "Отсканируйте библиотечную наклейку экземпляра, а не штрихкод издательства."
    }
  }

  /// A copy or reader whose record the desks disagree about: settled at the desk first.
  var atTheDesk: String {
    switch language {
    case .english: return "Please take this book to the library desk."
    case .russian: return "Пожалуйста, обратитесь с этой книгой на кафедру выдачи."
    }
  }

  /// A hold to cancel that the reader does not have.
  var noHold: String {
    switch language {
    case .english: return "You have no hold on this title."
    case .russian: return "У вас нет заказа на эту книгу."
    }
  }

  /// A request the library does not take from a kiosk.
  var cannot: String {
    switch language {
    case .english: return "This is done at the library desk."
    case .russian: return "Это делают на кафедре выдачи."
    }
  }
}
