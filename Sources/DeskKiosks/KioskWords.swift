import DeskDomain
import DeskStorage

/// What a kiosk's screen says that the desk's own words do not: in the kiosk's language.
struct KioskWords {
  let language: OverdueNotice.Language

  init(_ language: OverdueNotice.Language) {
    self.language = language
  }

  /// What a refusal says on a kiosk's screen: to the reader, in a line, never naming another
  /// reader or a key of the desk's (the desk's own words are for its staff).
  func message(_ refusal: CirculationRefusal) -> String {
    let english = language == .english
    switch refusal {
    case .unknownBook, .notABook, .isbnNotInLibrary:
      return english
        ? "This book is not known to the library: please take it to the library desk."
        : "Эта книга не найдена в библиотеке: обратитесь на кафедру выдачи."
    case .unknownReader:
      return english
        ? "This card is not known to the library: please ask at the library desk."
        : "Этот читательский билет не найден: обратитесь на кафедру выдачи."
    case .alreadyOnLoan, .heldForAnother, .renewalHeld: return notAvailable
    case .alreadyOnLoanToSameReader(_, _, let due):
      return english ? "You have this book already, due \(due.iso)." : "Эта книга уже у вас, вернуть до \(due.iso)."
    case .limitReached(_, let limit, _):
      return english
        ? "You have \(limit) books, as many as you may borrow: please return one first."
        : "У вас \(limit) книг, больше взять нельзя: сначала верните одну."
    case .hasOverdue(_, let count):
      return english
        ? "You have \(count) overdue \(count == 1 ? "book" : "books"): please return \(count == 1 ? "it" : "them") first."
        : "У вас просрочено книг: \(count). Сначала верните их."
    case .notOnLoan:
      return english ? "This book is not on loan." : "Эта книга не выдана."
    case .renewalLimitReached(_, _, let limit) where limit == 0:
      return english
        ? "This book cannot be renewed: please take it to the library desk."
        : "Эту книгу продлить нельзя: обратитесь на кафедру выдачи."
    case .renewalLimitReached(_, _, let limit):
      return english
        ? "This book has been renewed \(limit) times already: please take it to the library desk."
        : "Эту книгу уже продлевали \(limit) раз: обратитесь на кафедру выдачи."
    case .nothingToRenew:
      return english ? "You have no books to renew." : "У вас нет книг для продления."
    case .notForLoan:
      return english
        ? "This copy cannot be borrowed: please take it to the library desk."
        : "Этот экземпляр не выдаётся: обратитесь на кафедру выдачи."
    case .noCopyAvailable, .noCopyOut, .severalCopies: return scanTheCopy
    case .holdLimitReached(_, let limit, _):
      return english
        ? "You have \(limit) holds, as many as you may place."
        : "У вас \(limit) заказов, больше заказать нельзя."
    case .alreadyHolds, .alreadyHasTitle:
      return english ? "You have this title on hold or on loan already." : "Эта книга у вас уже заказана или выдана."
    case .copyOnShelf:
      return english
        ? "A copy is on the shelf: you may borrow it now." : "Экземпляр есть на полке: его можно взять сейчас."
    case .dueDateInPast, .holdDateInPast, .suspensionInPast, .unknownHold, .holdEnded, .holdWaitingNotSuspended,
      .holdNotSuspended, .suspensionPastWanted:
      return atTheDesk
    }
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
