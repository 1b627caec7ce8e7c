import DeskSync

/// Why a desk could not join or sync, in Russian.
extension RussianWords {
  public func message(_ error: SyncError) -> String {
    switch error {
    case .central(let error): return message(error)
    case .store(let error): return messages(error).joined(separator: "\n")
    case .notJoined:
      return "Библиотека не подключена к центральному серверу: выполните circdesk central join --url АДРЕС --desk ИМЯ"
    case .otherLibrary(let desk, let central):
      return "На центральном сервере другая библиотека (\(central)), не библиотека этой кафедры (\(desk)): "
        + "проверьте адрес"
    case .centralNotReady(let found, let needed):
      return found > needed
        ? "Центральный сервер настроен более новой версией circdesk (схема \(found), эта версия знает до "
          + "\(needed)): обновите circdesk на этой кафедре"
        : (found == 0
          ? "На центральном сервере нет схемы: выполните на нём circdesk central init"
          : "Схема центрального сервера устарела (\(found)): выполните на нём circdesk central init")
    case .deskNameTaken(let name):
      return "Другая кафедра этой библиотеки уже называется «\(name)»: выберите другое имя (--desk)"
    }
  }

  private func message(_ error: CentralError) -> String {
    switch error {
    case .cannotConnect(let reason):
      return "Нет связи с центральным сервером: \(CentralError.oneLine(reason)) (проверьте адрес, сервер и пароль)"
    case .query(let reason):
      if reason.contains("permission denied") {
        return "Центральный сервер отказал: \(CentralError.oneLine(reason)) (у этой роли нет прав на это: "
          + "настраивает и обновляет сервер роль — владелец его базы)"
      }
      return "Центральный сервер отказал: \(CentralError.oneLine(reason))"
    case .newerSchema(let found, let supported):
      return "Центральный сервер настроен более новой версией circdesk (схема \(found), эта версия знает до "
        + "\(supported)): обновите circdesk на этой кафедре"
    case .notACentral(let tables):
      return "В базе есть таблицы, не принадлежащие центральному серверу библиотеки "
        + "(\(tables.prefix(5).joined(separator: ", "))): отведите серверу отдельную базу"
    case .connectionLost(let reason):
      return "Связь с центральным сервером прервалась: \(CentralError.oneLine(reason)) (ничего не потеряно: "
        + "синхронизируйте снова)"
    case .clientLibraryMissing(let reason):
      return "Не загружается клиентская библиотека PostgreSQL (\(CentralError.oneLine(reason))): установите её "
        + "(apt-get install libpq5); кафедра пока работает сама по себе"
    case .noURL:
      return "Не указан центральный сервер: задайте --url или CIRCDESK_CENTRAL_URL"
    }
  }
}
