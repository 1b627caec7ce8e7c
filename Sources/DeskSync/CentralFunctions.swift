import DeskDomain

extension CentralSchema {
  /// Version 4: the rules of every field that travels (`field_rule`), which `central init` writes
  /// afresh from this program's own (`LibraryStore.travellingFields`) each time it runs, and the
  /// central checks every change against.
  static let version4 = """
    CREATE TABLE field_rule (
      entity text NOT NULL, field text NOT NULL, kind text NOT NULL, minimum numeric, maximum numeric,
      target text NOT NULL DEFAULT '', nullable boolean NOT NULL DEFAULT false,
      needed boolean NOT NULL DEFAULT false, PRIMARY KEY (entity, field));
    """

  /// The central's functions, as this version of the program has them: made again with `CREATE OR
  /// REPLACE` by every `central init`, after the versioned steps (which change tables only).
  ///
  /// `circdesk_push` takes a desk's batch of changes (a JSON array, oldest first) in the caller's
  /// transaction and says what became of each: 'accepted' (or taken before: a retry applies
  /// nothing twice); 'invalid' (it breaks a rule of its fields, names a record the central does
  /// not know, or its clock is ahead of the central's; detail: why); 'clash' (the number belongs
  /// to another record; detail: its id and desk); or 'held' (it depends on a record refused in
  /// this batch; detail: that record). Only a batch that is not an array, or a change without an
  /// id, fails whole. It runs with its owner's rights (SECURITY DEFINER): a desk's role needs no
  /// right to write the log or the numbers itself, only to call it.
  static let functions = #"""
    -- Why a value breaks its field's rule; NULL when it keeps it. The same rules as a desk's
    -- (`FieldRule.problem`), with their words.
    -- The checking functions have no search_path of their own: they run under circdesk_push's,
    -- the one function that calls them with rights of its own. A function's own setting is put
    -- on and taken off at every call (measured: a quarter of the time of checking a new book).
    CREATE OR REPLACE FUNCTION circdesk_value_problem(r field_rule, p_value jsonb) RETURNS text
    LANGUAGE plpgsql STABLE AS $$
    DECLARE
      t text;
      n numeric;
    BEGIN
      IF p_value IS NULL OR jsonb_typeof(p_value) = 'null' THEN
        RETURN CASE WHEN r.nullable THEN NULL ELSE 'is empty' END;
      END IF;
      IF r.kind IN ('integer', 'flag') THEN
        IF jsonb_typeof(p_value) <> 'number' THEN
          RETURN 'holds ' || CASE jsonb_typeof(p_value) WHEN 'string' THEN 'text' ELSE jsonb_typeof(p_value) END
            || ', not a whole number';
        END IF;
        n := (p_value #>> '{}')::numeric;
        IF n <> trunc(n) THEN RETURN 'holds a number with a fraction, not a whole number'; END IF;
        IF r.kind = 'flag' AND n NOT IN (0, 1) THEN RETURN 'is ' || n || ', not 0 or 1'; END IF;
        IF n < r.minimum OR n > r.maximum THEN
          RETURN 'is ' || n || ', outside ' || r.minimum || '…' || r.maximum;
        END IF;
        RETURN NULL;
      END IF;
      IF jsonb_typeof(p_value) <> 'string' THEN
        RETURN 'holds ' || CASE jsonb_typeof(p_value) WHEN 'number' THEN 'a number' ELSE jsonb_typeof(p_value) END
          || ', not text';
      END IF;
      t := p_value #>> '{}';
      IF r.kind = 'text' THEN
        IF char_length(t) < r.minimum THEN RETURN 'is empty'; END IF;
        IF char_length(t) > r.maximum THEN
          RETURN 'is longer than ' || r.maximum || ' characters (' || char_length(t) || ')';
        END IF;
      ELSIF r.kind IN ('identifier', 'reference') THEN
        IF t = '' THEN RETURN 'is empty'; END IF;
        IF char_length(t) > 64 THEN RETURN 'is longer than 64 characters (' || char_length(t) || ')'; END IF;
        IF t ~ \#(CentralRuleCheck.literal(CentralRuleCheck.controlCharacters)) THEN
          RETURN 'holds a control character';
        END IF;
        IF left(t, 1) = ' ' OR right(t, 1) = ' ' THEN RETURN 'begins or ends with a space'; END IF;
        IF r.kind = 'reference' AND NOT circdesk_known(r.target, t) THEN
          RETURN 'names a ' || r.target || ' the central does not know (' || t || ')';
        END IF;
      ELSIF r.kind IN ('date', 'moment') THEN
        IF (r.kind = 'date' AND t !~ '^\d{4}-\d{2}-\d{2}$')
            OR (r.kind = 'moment' AND t !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$') THEN
          RETURN '«' || left(t, 40) || '» is not '
            || CASE r.kind WHEN 'date' THEN 'a day (YYYY-MM-DD)' ELSE 'a moment (YYYY-MM-DDTHH:MM:SS.mmmZ)' END;
        END IF;
        -- PostgreSQL reads 24:00:00 and a 60th second as moments; a desk does not.
        IF r.kind = 'moment' AND (substr(t, 12, 2)::int > 23 OR substr(t, 15, 2)::int > 59
            OR substr(t, 18, 2)::int > 59) THEN
          RETURN '«' || left(t, 40) || '» is not a moment';
        END IF;
        BEGIN
          IF r.kind = 'date' THEN PERFORM t::date; ELSE PERFORM t::timestamptz; END IF;
        EXCEPTION WHEN others THEN
          RETURN '«' || left(t, 40) || '» is not ' || CASE r.kind WHEN 'date' THEN 'a day' ELSE 'a moment' END;
        END;
      ELSIF r.kind = 'uuid' THEN
        IF t !~ \#(CentralRuleCheck.literal(CentralRuleCheck.uuidPattern)) THEN RETURN 'is not a UUID'; END IF;
      ELSIF r.kind = 'choice' THEN
        IF NOT t = ANY (string_to_array(r.target, '|')) THEN
          RETURN '«' || left(t, 40) || '» is not one of ' || replace(r.target, '|', ', ');
        END IF;
      END IF;
      RETURN NULL;
    END
    $$;

    -- Whether the central knows a record: books and readers by their numbers' table, the others by
    -- a change made of them.
    CREATE OR REPLACE FUNCTION circdesk_known(p_entity text, p_record text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT CASE WHEN p_entity IN ('book', 'reader') THEN
          p_record ~ \#(CentralRuleCheck.literal(CentralRuleCheck.uuidPattern))
          AND EXISTS (SELECT 1 FROM record_key WHERE entity = p_entity AND id = p_record::uuid)
        ELSE EXISTS (SELECT 1 FROM change WHERE entity = p_entity AND record_id = p_record) END
    $$;

    -- Why a change may not be stored (its kind, its record, its clock, each field), NULL when it
    -- may. A clock is refused further ahead of the central's own than twice the bound a desk's
    -- clock may be off (`ClockOffset.refusedAheadMilliseconds`).
    CREATE OR REPLACE FUNCTION circdesk_change_problem(p_entity text, p_record text, p_hlc bigint, p_payload jsonb)
    RETURNS text LANGUAGE plpgsql STABLE AS $$
    DECLARE
      r field_rule%ROWTYPE;
      f record;
      problem text;
      ahead bigint;
    BEGIN
      -- Every kind of record has the rule of its id (field ''): read once, it tells the kind too.
      -- (A push checks every change: each query here is one per change, the fields' rules are
      -- read with the fields in one.)
      SELECT * INTO r FROM field_rule WHERE entity = p_entity AND field = '';
      IF NOT FOUND THEN
        RETURN 'no record is of the kind «' || coalesce(left(p_entity, 40), '') || '»';
      END IF;
      IF p_hlc IS NULL OR p_hlc < 0 THEN RETURN 'it has no clock'; END IF;
      ahead := p_hlc / 65536 - (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
      IF ahead > \#(ClockOffset.refusedAheadMilliseconds) THEN
        RETURN 'its clock is ' || (ahead / 60000) || ' minutes ahead of the central''s: set the desk''s clock right';
      END IF;
      IF jsonb_typeof(p_payload) IS DISTINCT FROM 'object' THEN RETURN 'its fields are not a JSON object'; END IF;
      problem := circdesk_value_problem(r, to_jsonb(p_record));
      IF problem IS NOT NULL THEN RETURN 'the record''s id ' || problem; END IF;
      FOR f IN SELECT j.key, j.value, x AS rule, x.field IS NULL AS unknown FROM jsonb_each(p_payload) j
          LEFT JOIN field_rule x ON x.entity = p_entity AND x.field = j.key AND x.field <> '' LOOP
        IF f.unknown THEN RETURN 'a ' || p_entity || ' has no field «' || left(f.key, 40) || '»'; END IF;
        problem := circdesk_value_problem(f.rule, f.value);
        IF problem IS NOT NULL THEN RETURN '«' || f.key || '» ' || problem; END IF;
      END LOOP;
      -- A record made at a desk comes whole; a change of one comes after it.
      IF p_payload ? 'created_at' THEN
        SELECT field INTO problem FROM field_rule
        WHERE entity = p_entity AND needed AND NOT p_payload ? field ORDER BY field LIMIT 1;
        IF FOUND THEN RETURN 'a new ' || p_entity || ' needs «' || problem || '»'; END IF;
      ELSIF EXISTS (SELECT 1 FROM field_rule WHERE entity = p_entity AND needed)
        AND NOT circdesk_known(p_entity, p_record) THEN
        RETURN 'the central does not know this ' || p_entity;
      END IF;
      RETURN NULL;
    END
    $$;

    -- Stores a plain batch of a desk's changes by a statement a table, not a few a change, and
    -- says true; says false and stores nothing for any other batch, which `circdesk_push` then
    -- takes change by change. A batch is plain when every change keeps its rules and its clock
    -- is not ahead (of `p_now`, the central's clock as the batch began), none was taken before,
    -- and its books and readers are new ones, each once, with numbers no live record holds: a
    -- desk's first join sends its library so. Taken change by change, such a batch comes to the
    -- same: every change accepted, the new records' numbers stored with their clocks. (A record
    -- known before the batch is known to each of its changes in turn: what the check passes
    -- here, the loop's passes.)
    CREATE OR REPLACE FUNCTION circdesk_store_plain(p_desk uuid, p_batch change[], p_now bigint) RETURNS boolean
    LANGUAGE plpgsql AS $$
    DECLARE
      plain boolean;
    BEGIN
      -- (bool_and passes over NULL: a change with no clock is not plain. The deletion mark is
      -- compared as JSON, never cast: a hostile mark is the loop's to refuse, with its reason.)
      plain := (SELECT count(*) = count(DISTINCT x.id)
          AND bool_and(coalesce(x.id IS NOT NULL AND x.hlc >= 0
            AND x.hlc / 65536 - p_now <= \#(ClockOffset.refusedAheadMilliseconds)
            AND circdesk_keeps_rules(x.entity, x.record_id, x.payload)
            AND (x.entity NOT IN ('book', 'reader') OR (x.payload ? 'created_at'
              AND x.payload ? CASE x.entity WHEN 'book' THEN 'inventory' ELSE 'ticket' END
              AND coalesce(x.payload -> 'deleted', '0') = '0'::jsonb)), false))
        FROM unnest(p_batch) AS x);
      IF plain THEN
        plain := NOT EXISTS (SELECT 1 FROM change c
            WHERE c.id IN (SELECT x.id FROM unnest(p_batch) AS x))
          AND NOT EXISTS (
            WITH k AS (
              SELECT x.entity, x.record_id::uuid AS id,
                x.payload ->> CASE x.entity WHEN 'book' THEN 'inventory' ELSE 'ticket' END AS key
              FROM unnest(p_batch) AS x
              WHERE x.entity IN ('book', 'reader'))
            SELECT 1 FROM k GROUP BY entity, id HAVING count(*) > 1
            UNION ALL SELECT 1 FROM k GROUP BY entity, key HAVING count(*) > 1
            UNION ALL SELECT 1 FROM k JOIN record_key r ON r.entity = k.entity AND r.id = k.id
            UNION ALL SELECT 1 FROM k JOIN record_key r ON r.entity = k.entity AND r.key = k.key AND NOT r.deleted);
      END IF;
      -- (An empty batch is not plain: nothing to store, nothing to tell the listening desks.)
      IF plain IS NOT TRUE THEN RETURN false; END IF;
      INSERT INTO record_key(entity, id, key, key_clock, key_desk, deleted, deleted_clock, deleted_desk)
      SELECT x.entity, x.record_id::uuid, x.payload ->> CASE x.entity WHEN 'book' THEN 'inventory' ELSE 'ticket' END,
        x.hlc, p_desk::text, false, CASE WHEN x.payload ? 'deleted' THEN x.hlc ELSE 0 END,
        CASE WHEN x.payload ? 'deleted' THEN p_desk::text ELSE '' END
      FROM unnest(p_batch) AS x
      WHERE x.entity IN ('book', 'reader');
      -- In the batch's order: the log's numbers follow it.
      INSERT INTO change(id, desk_id, entity, record_id, hlc, payload)
      SELECT x.id, p_desk, x.entity, x.record_id, x.hlc, x.payload
      FROM unnest(p_batch) WITH ORDINALITY AS x(seq, id, desk_id, entity, record_id, hlc, payload, received_at, n)
      ORDER BY x.n;
      RETURN true;
    END
    $$;
    REVOKE ALL ON FUNCTION circdesk_store_plain(uuid, change[], bigint) FROM PUBLIC;

    CREATE OR REPLACE FUNCTION circdesk_push(p_desk uuid, p_batch jsonb)
    RETURNS TABLE (change_id uuid, outcome text, detail text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DECLARE
      c record;
      cur record_key%ROWTYPE;
      known boolean;
      number_field text;
      key_wins boolean;
      deleted_wins boolean;
      new_key text;
      new_deleted boolean;
      other_id uuid;
      other_desk text;
      problem text;
      refused text[] := '{}';
      stored boolean := false;
      batch change[];
      -- The central's clock as the batch began: a change's clock is ahead of it by at most the
      -- bound here, and then by less when its rules are read.
      central_now bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
    BEGIN
      -- One batch at a time: sequence numbers then become visible in the order they are given,
      -- so a desk that pulls "after N" never passes over a change still being committed.
      PERFORM pg_advisory_xact_lock(7316);
      IF NOT EXISTS (SELECT 1 FROM desk WHERE id = p_desk) THEN
        RAISE EXCEPTION 'desk % has not joined this central: run circdesk central join', p_desk;
      END IF;
      IF NOT EXISTS (SELECT 1 FROM desk WHERE id = p_desk AND role = session_user) THEN
        RAISE EXCEPTION 'desk % joined as another role: connect as that role', p_desk;
      END IF;
      IF jsonb_typeof(p_batch) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'a batch of changes must be a JSON array';
      END IF;
      -- Read from JSON once: the plain way reads the batch several times.
      batch := ARRAY(SELECT jsonb_populate_recordset(NULL::change, p_batch));
      IF circdesk_store_plain(p_desk, batch, central_now) THEN
        RETURN QUERY SELECT x.id, 'accepted'::text, NULL::text FROM unnest(batch) AS x;
        PERFORM pg_notify('\#(CentralSchema.changesChannel)', p_desk::text);
        RETURN;
      END IF;
      FOR c IN SELECT x.id, x.entity, x.record_id, x.hlc, x.payload FROM unnest(batch) AS x LOOP
        change_id := c.id;
        detail := NULL;
        IF c.id IS NULL THEN
          RAISE EXCEPTION 'a change has no id: every change needs one';
        END IF;
        IF EXISTS (SELECT 1 FROM change WHERE id = c.id) THEN
          outcome := 'accepted';
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.record_id = ANY (refused) THEN
          outcome := 'held';
          detail := c.record_id;
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.entity IN ('loan', 'hold', 'visit', 'renewal', 'stocktake_part', 'stocktake_scan')
            AND (c.payload->>'book' = ANY (refused) OR c.payload->>'reader' = ANY (refused)
            OR c.payload->>'trapped_book' = ANY (refused) OR c.payload->>'loan' = ANY (refused)
            OR c.payload->>'stocktake' = ANY (refused)) THEN
          -- The loan's, hold's, visit's, renewal's or check's part's or scan's later changes wait with it.
          detail := CASE WHEN c.payload->>'book' = ANY (refused) THEN c.payload->>'book'
            WHEN c.payload->>'reader' = ANY (refused) THEN c.payload->>'reader'
            WHEN c.payload->>'loan' = ANY (refused) THEN c.payload->>'loan'
            WHEN c.payload->>'stocktake' = ANY (refused) THEN c.payload->>'stocktake'
            ELSE c.payload->>'trapped_book' END;
          refused := refused || c.record_id;
          outcome := 'held';
          RETURN NEXT;
          CONTINUE;
        END IF;
        -- Nothing invalid is stored for the other desks to pull: refused, with the reason, to the
        -- desk that sent it; the record's later changes in the batch wait with it.
        -- Nearly every change keeps its rules and its clock is not ahead, which the straight-line
        -- check made from the rules says at once (`circdesk_keeps_rules`); any other is read
        -- against the rules' rows, which say why.
        IF c.hlc >= 0 AND c.hlc / 65536 - central_now <= \#(ClockOffset.refusedAheadMilliseconds)
          AND circdesk_keeps_rules(c.entity, c.record_id, c.payload) THEN
          problem := NULL;
        ELSE
          problem := circdesk_change_problem(c.entity, c.record_id, c.hlc, c.payload);
        END IF;
        IF problem IS NOT NULL THEN
          refused := refused || coalesce(c.record_id, '');
          outcome := 'invalid';
          detail := problem;
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.entity IN ('book', 'reader') THEN
          number_field := CASE c.entity WHEN 'book' THEN 'inventory' ELSE 'ticket' END;
          SELECT * INTO cur FROM record_key WHERE entity = c.entity AND id = c.record_id::uuid;
          known := FOUND;
          IF NOT known AND NOT (c.payload ? number_field) THEN
            refused := refused || c.record_id;
            outcome := 'invalid';
            detail := 'a new ' || c.entity || ' needs «' || number_field || '»';
            RETURN NEXT;
            CONTINUE;
          END IF;
          key_wins := c.payload ? number_field AND (NOT known OR (c.hlc, p_desk::text) > (cur.key_clock, cur.key_desk));
          deleted_wins := c.payload ? 'deleted'
            AND (NOT known OR (c.hlc, p_desk::text) > (cur.deleted_clock, cur.deleted_desk));
          new_key := CASE WHEN key_wins THEN c.payload->>number_field ELSE cur.key END;
          new_deleted := CASE WHEN deleted_wins THEN (c.payload->>'deleted')::int <> 0 ELSE coalesce(cur.deleted, false) END;
          IF NOT new_deleted THEN
            SELECT r.id, coalesce(d.name, r.key_desk) INTO other_id, other_desk
            FROM record_key r LEFT JOIN desk d ON d.id::text = r.key_desk
            WHERE r.entity = c.entity AND r.key = new_key AND NOT r.deleted AND r.id <> c.record_id::uuid;
            IF FOUND THEN
              refused := refused || c.record_id;
              outcome := 'clash';
              detail := other_id::text || ' ' || other_desk;
              RETURN NEXT;
              CONTINUE;
            END IF;
          END IF;
          IF known THEN
            UPDATE record_key SET key = new_key,
              key_clock = CASE WHEN key_wins THEN c.hlc ELSE key_clock END,
              key_desk = CASE WHEN key_wins THEN p_desk::text ELSE key_desk END,
              deleted = new_deleted,
              deleted_clock = CASE WHEN deleted_wins THEN c.hlc ELSE deleted_clock END,
              deleted_desk = CASE WHEN deleted_wins THEN p_desk::text ELSE deleted_desk END
            WHERE entity = c.entity AND id = c.record_id::uuid;
          ELSE
            INSERT INTO record_key(entity, id, key, key_clock, key_desk, deleted, deleted_clock, deleted_desk)
            VALUES (c.entity, c.record_id::uuid, new_key, c.hlc, p_desk::text, new_deleted,
              CASE WHEN deleted_wins THEN c.hlc ELSE 0 END, CASE WHEN deleted_wins THEN p_desk::text ELSE '' END);
          END IF;
        END IF;
        INSERT INTO change(id, desk_id, entity, record_id, hlc, payload)
        VALUES (c.id, p_desk, c.entity, c.record_id, c.hlc, c.payload);
        stored := true;
        outcome := 'accepted';
        RETURN NEXT;
      END LOOP;
      -- The desks that listen hear of it when the batch commits (the sending desk by its own id,
      -- which it leaves alone): they pull at once instead of at their next interval.
      IF stored THEN
        PERFORM pg_notify('\#(CentralSchema.changesChannel)', p_desk::text);
      END IF;
    END
    $$;
    REVOKE ALL ON FUNCTION circdesk_push(uuid, jsonb) FROM PUBLIC;

    -- Registers a desk, or renames it; a desk's role needs no right on the table itself.
    CREATE OR REPLACE FUNCTION circdesk_join(p_desk uuid, p_name text, p_key text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DECLARE
      owner text;
    BEGIN
      IF btrim(coalesce(p_name, '')) = '' OR coalesce(p_key, '') = '' THEN
        RAISE EXCEPTION 'a desk needs a name';
      END IF;
      SELECT role INTO owner FROM desk WHERE id = p_desk;
      IF FOUND AND owner <> session_user THEN
        RAISE EXCEPTION 'this desk joined as role %: connect as that role', owner;
      END IF;
      INSERT INTO desk(id, name, name_key, role) VALUES (p_desk, btrim(p_name), p_key, session_user)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key;
    END
    $$;
    REVOKE ALL ON FUNCTION circdesk_join(uuid, text, text) FROM PUBLIC;
    """#
}
