import DeskTestSupport
import Foundation
import Testing

/// `circdesk lookup` as the real program, against a catalogue on 127.0.0.1.
@Suite struct LookupCommandTests {
  @Test func looksUpThenAnswersFromMemoryAndDrainsThePendingQueue() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("library.sqlite")]
    let answer = """
      {"ISBN:9780141439518": {"title": "Pride and Prejudice", "authors": [{"name": "Jane Austen"}],
       "publishers": [{"name": "Penguin Books"}], "publish_places": [{"name": "London"}], "publish_date": "2003",
       "number_of_pages": 480, "identifiers": {"isbn_13": ["9780141439518"]}}}
      """
    let server = try LocalHTTPServer { target in
      target.hasPrefix("/ol") && target.contains("9780141439518") ? .init(body: answer) : .init(body: "{}")
    }
    let online = [
      "CIRCDESK_GOOGLE_BOOKS_URL": server.baseURL + "/google", "CIRCDESK_OPEN_LIBRARY_URL": server.baseURL + "/ol",
    ]
    let found = try runProgram(circdeskPath, ["lookup", "978-0-14-143951-8"] + db, environment: online)
    #expect(found.status == 0)
    #expect(
      found.output == """
        ISBN 978-0-14-143951-8: found in Open Library
        Title      Pride and Prejudice
        Author     Austen J.
        Publisher  Penguin Books
        City       London
        Year       2003
        Pages      480

        """)
    let offline = [
      "CIRCDESK_GOOGLE_BOOKS_URL": "http://127.0.0.1:9/google", "CIRCDESK_OPEN_LIBRARY_URL": "http://127.0.0.1:9/ol",
    ]
    let remembered = try runProgram(circdeskPath, ["lookup", "9780141439518", "--json"] + db, environment: offline)
    #expect(remembered.status == 0)
    #expect(remembered.output.contains("\"cached\": true"))

    let waiting = try runProgram(circdeskPath, ["lookup", "9785170795857"] + db, environment: offline)
    #expect(waiting.status == 1)
    #expect(waiting.output.contains("it waits for 'circdesk lookup --pending'"))
    let drained = try runProgram(circdeskPath, ["lookup", "--pending"] + db, environment: online)
    #expect(drained.status == 1, "the queued ISBN is not in this catalogue")
    #expect(drained.output.contains("ISBN 978-5-17-079585-7: no catalogue knows this book"))
    #expect(drained.output.contains("1 look-up: 0 found, 1 not found, 0 still waiting"))
    let empty = try runProgram(circdeskPath, ["lookup", "--pending"] + db, environment: online)
    #expect(empty.output == "No look-ups are waiting.\n")

    let invalid = try runProgram(circdeskPath, ["lookup", "978-5-17-079585-0"] + db, environment: online)
    #expect(invalid.status == 1)
    #expect(invalid.errors == "ISBN 978-5-17-079585-0 has a wrong check digit (expected 7)\n")
  }
}
