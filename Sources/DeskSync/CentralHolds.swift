extension CentralSchema {
  /// Version 3: holds travel. `circdesk_push` takes changes of holds as it takes loans': a hold
  /// of a reader or book the central does not know fails the batch, and one of a record refused
  /// earlier in the batch waits with it. (Version 2's function, with holds added.)
  static let version3 = #"""
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
      refused text[] := '{}';
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
      FOR c IN SELECT * FROM jsonb_to_recordset(p_batch)
          AS x(id uuid, entity text, record_id text, hlc bigint, payload jsonb) LOOP
        change_id := c.id;
        detail := NULL;
        IF c.id IS NULL OR c.entity IS NULL OR c.record_id IS NULL OR c.hlc IS NULL
            OR jsonb_typeof(c.payload) IS DISTINCT FROM 'object' THEN
          RAISE EXCEPTION 'change % is incomplete: it needs an id, a kind of record, a record, a clock and fields',
            coalesce(c.id::text, '(no id)');
        END IF;
        IF c.entity NOT IN ('category', 'holiday', 'setting', 'address', 'book', 'reader', 'loan', 'hold', 'conflict')
            THEN
          RAISE EXCEPTION 'change %: no record is of the kind %', c.id, c.entity;
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
        IF c.entity IN ('loan', 'hold') AND (c.payload->>'book' = ANY (refused) OR c.payload->>'reader' = ANY (refused)
            OR c.payload->>'trapped_book' = ANY (refused)) THEN
          -- The loan's or hold's later changes wait with it.
          detail := CASE WHEN c.payload->>'book' = ANY (refused) THEN c.payload->>'book'
            WHEN c.payload->>'reader' = ANY (refused) THEN c.payload->>'reader' ELSE c.payload->>'trapped_book' END;
          refused := refused || c.record_id;
          outcome := 'held';
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.entity IN ('book', 'reader') THEN
          number_field := CASE c.entity WHEN 'book' THEN 'inventory' ELSE 'ticket' END;
          SELECT * INTO cur FROM record_key WHERE entity = c.entity AND id = c.record_id::uuid;
          known := FOUND;
          IF NOT known AND NOT (c.payload ? number_field) THEN
            RAISE EXCEPTION 'change % is about % %, which the central does not know', c.id, c.entity, c.record_id;
          END IF;
          key_wins := c.payload ? number_field AND (NOT known OR (c.hlc, p_desk::text) > (cur.key_clock, cur.key_desk));
          deleted_wins := c.payload ? 'deleted'
            AND (NOT known OR (c.hlc, p_desk::text) > (cur.deleted_clock, cur.deleted_desk));
          new_key := CASE WHEN key_wins THEN c.payload->>number_field ELSE cur.key END;
          new_deleted := CASE WHEN deleted_wins THEN (c.payload->>'deleted')::int <> 0 ELSE coalesce(cur.deleted, false) END;
          IF new_key IS NULL OR new_key = '' THEN
            RAISE EXCEPTION 'change % leaves % % without its %', c.id, c.entity, c.record_id, number_field;
          END IF;
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
        ELSIF c.entity IN ('loan', 'address', 'hold') AND NOT c.payload ? 'created_at'
            AND NOT EXISTS (SELECT 1 FROM change WHERE entity = c.entity AND record_id = c.record_id) THEN
          -- A change of a loan or address the central never saw made would stop every other desk.
          RAISE EXCEPTION 'change % is about % %, which the central does not know', c.id, c.entity, c.record_id;
        END IF;
        IF c.entity = 'loan' THEN
          IF c.payload ? 'book' AND NOT EXISTS (
              SELECT 1 FROM record_key WHERE entity = 'book' AND id = (c.payload->>'book')::uuid) THEN
            RAISE EXCEPTION 'change % issues book %, which the central does not know', c.id, c.payload->>'book';
          END IF;
          IF c.payload ? 'reader' AND NOT EXISTS (
              SELECT 1 FROM record_key WHERE entity = 'reader' AND id = (c.payload->>'reader')::uuid) THEN
            RAISE EXCEPTION 'change % issues a book to reader %, whom the central does not know', c.id,
              c.payload->>'reader';
          END IF;
        END IF;
        IF c.entity = 'hold' THEN
          -- A hold on a title names no copy; one that waits names the copy put aside.
          IF c.payload->>'reader' IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM record_key WHERE entity = 'reader' AND id = (c.payload->>'reader')::uuid) THEN
            RAISE EXCEPTION 'change % is a hold of reader %, whom the central does not know', c.id, c.payload->>'reader';
          END IF;
          IF EXISTS (SELECT 1 FROM jsonb_each_text(c.payload) f WHERE f.key IN ('book', 'trapped_book')
              AND f.value IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM record_key WHERE entity = 'book' AND id = f.value::uuid)) THEN
            RAISE EXCEPTION 'change % is a hold of a book the central does not know', c.id;
          END IF;
        END IF;
        INSERT INTO change(id, desk_id, entity, record_id, hlc, payload)
        VALUES (c.id, p_desk, c.entity, c.record_id, c.hlc, c.payload);
        outcome := 'accepted';
        RETURN NEXT;
      END LOOP;
    END
    $$;
    """#
}
