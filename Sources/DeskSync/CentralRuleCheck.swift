import DeskDomain
import DeskStorage

/// `circdesk_keeps_rules(entity, record, payload)`: whether a change keeps every rule of its
/// kind's fields, in straight-line PL/pgSQL made from the rules by `central init`. It only says
/// yes or no; a change it says no to is checked again by `circdesk_change_problem`'s reading of
/// the rules (`field_rule`), which says why. Nearly every change keeps its rules, and this way
/// checks it with no query but a reference's and no call a field: a desk joining with 100,000
/// books of its own sends 125,012 changes of 2.5 million values, which took the central 22.2 s
/// through the rules' rows (10.7 s of it in one call a value) and take it 5.9 s this way.
///
/// It never says yes where the reading of the rules finds a problem: each test below is one the
/// rules' own allows (the sync tests compare the two on every kind of field and value). Where
/// an exact test would need an error caught (a day PostgreSQL may not take), it says no and
/// leaves the answer to the reading of the rules.
enum CentralRuleCheck {
  /// What an identifier may not hold: control and bidirectional characters (`FieldRule`'s).
  static let controlCharacters = #"[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"#
  static let uuidPattern = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"

  /// The function, for these rules (`LibraryStore.travellingFields`): for each kind of record
  /// one expression, which PostgreSQL evaluates without a statement a test (the same 125,012
  /// changes: 7.1 s as a statement a test, 5.9 s as one expression a kind).
  static func function(for fields: [TravellingField]) -> String {
    var entities: [String] = []
    var byEntity: [String: [TravellingField]] = [:]
    for field in fields {
      if byEntity[field.entity] == nil { entities.append(field.entity) }
      byEntity[field.entity, default: []].append(field)
    }
    let branches = entities.map { entity in
      "  IF p_entity = \(literal(entity)) THEN\n    RETURN "
        + tests(of: entity, byEntity[entity] ?? []).joined(separator: "\n      AND ") + ";\n  END IF;"
    }
    return """
      CREATE OR REPLACE FUNCTION circdesk_keeps_rules(p_entity text, p_record text, p_payload jsonb)
      RETURNS boolean LANGUAGE plpgsql STABLE AS $$
      BEGIN
        IF jsonb_typeof(p_payload) IS DISTINCT FROM 'object' THEN RETURN false; END IF;
      \(branches.joined(separator: "\n"))
        RETURN false;
      END
      $$;

      """
  }

  /// The tests of one kind of record: its id, no field it does not have, each field it has, and
  /// a new record's needed fields (or, for a change, the record known). CASE keeps a value from
  /// a test that would fail on it (a cast) where an AND might not.
  private static func tests(of entity: String, _ fields: [TravellingField]) -> [String] {
    var tests: [String] = []
    let named = fields.filter { !$0.field.isEmpty }
    if let id = fields.first(where: { $0.field.isEmpty }) {
      tests.append("p_record IS NOT NULL AND \(textTest(id.rule.kind, "p_record"))")
    }
    tests.append("p_payload - \(array(named.map(\.field))) = '{}'::jsonb")
    for field in named {
      let (value, text) = ("(p_payload -> \(literal(field.field)))", "(p_payload ->> \(literal(field.field)))")
      tests.append("(NOT p_payload ? \(literal(field.field)) OR \(test(field.rule, value, text)))")
    }
    let needed = named.filter(\.neededToCreate).map(\.field)
    if !needed.isEmpty {
      tests.append(
        "CASE WHEN p_payload ? 'created_at' THEN p_payload ?& \(array(needed))"
          + " ELSE circdesk_known(\(literal(entity)), p_record) END")
    }
    return tests
  }

  /// Whether `value` (a JSON value, not SQL's NULL; `text` when it is a string) keeps `rule`.
  private static func test(_ rule: FieldRule, _ value: String, _ text: String) -> String {
    let empty = rule.nullable ? " WHEN 'null' THEN true" : ""
    switch rule.kind {
    case .integer(let range):
      return number(value, range.lowerBound, range.upperBound, empty)
    case .flag:
      return number(value, 0, 1, empty)
    default:
      return "CASE jsonb_typeof(\(value)) WHEN 'string' THEN \(textTest(rule.kind, text))"
        + "\(empty) ELSE false END"
    }
  }

  private static func number(_ value: String, _ minimum: Int64, _ maximum: Int64, _ empty: String) -> String {
    "CASE jsonb_typeof(\(value)) WHEN 'number' THEN \(value)::numeric = trunc(\(value)::numeric)"
      + " AND \(value)::numeric BETWEEN \(minimum) AND \(maximum)\(empty) ELSE false END"
  }

  /// Whether the text `text` keeps a rule of this kind.
  private static func textTest(_ kind: FieldKind, _ text: String) -> String {
    switch kind {
    case .text(let minimum, let maximum):
      return "char_length(\(text)) BETWEEN \(minimum) AND \(maximum)"
    case .identifier:
      return identifier(text)
    case .reference(let target):
      return "\(identifier(text)) AND circdesk_known(\(literal(target)), \(text))"
    case .uuid:
      return "\(text) ~ \(literal(uuidPattern))"
    case .choice(let words):
      return "\(text) = ANY (\(array(words)))"
    case .date:
      return "CASE WHEN \(text) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN \(day(text)) ELSE false END"
    case .moment:
      let (hour, minute, second) = (
        "substr(\(text), 12, 2)::int", "substr(\(text), 15, 2)::int", "substr(\(text), 18, 2)::int"
      )
      return "CASE WHEN \(text) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?Z$'"
        + " THEN \(hour) < 24 AND \(minute) < 60 AND \(second) < 60 AND \(day(text)) ELSE false END"
    case .integer, .flag:
      return "false"
    }
  }

  private static func identifier(_ text: String) -> String {
    "\(text) <> '' AND char_length(\(text)) <= \(FieldRule.identifierLength)"
      + " AND \(text) !~ \(literal(controlCharacters)) AND left(\(text), 1) <> ' ' AND right(\(text), 1) <> ' '"
  }

  /// Whether `text`, `YYYY-MM-DD…` in ASCII digits, begins with a day of the calendar from year 1
  /// (PostgreSQL has no year 0).
  private static func day(_ text: String) -> String {
    let (year, month, day) = ("substr(\(text), 1, 4)::int", "substr(\(text), 6, 2)::int", "substr(\(text), 9, 2)::int")
    return "\(year) >= 1 AND \(month) BETWEEN 1 AND 12 AND \(day) BETWEEN 1 AND CASE"
      + " WHEN \(month) IN (4, 6, 9, 11) THEN 30 WHEN \(month) <> 2 THEN 31"
      + " WHEN \(year) % 4 = 0 AND (\(year) % 100 <> 0 OR \(year) % 400 = 0) THEN 29 ELSE 28 END"
  }

  static func literal(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
  }

  private static func array(_ words: [String]) -> String {
    "ARRAY[" + words.map(literal).joined(separator: ", ") + "]::text[]"
  }
}
