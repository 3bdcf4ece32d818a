-- Line notes ("no onions", "extra hot"): a cashier's instruction on a bill line, kept with it
-- and shown wherever the line is (the bill, the order summary, the receipt). As SQLite's 0025
-- (see its decisions), and a guard for rolling upgrades.
--
-- Adding a nullable column does not rewrite the table; its check is added NOT VALID, so it
-- does not scan the lines already there (all NULL) under the table's lock, and holds for every
-- row written from now on.
ALTER TABLE bill_lines ADD COLUMN note text;
ALTER TABLE bill_lines ADD CONSTRAINT bill_lines_note_length
    CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 140) NOT VALID;

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration knows nothing of notes: adding an item it would raise a
-- line of that item whatever its note (a plain latte would become a second "extra hot" one),
-- and removing a line it rewrites the bill's lines without their notes. So every binary that
-- knows notes writes notes_version = version with each change to a bill that has a line with a
-- note (NULL otherwise); a change written otherwise (an old binary's, which leaves notes_version
-- as it was while raising the version) is refused: an old node cannot change a bill holding a
-- note, as it cannot change one with a discount (0021). It still changes bills without notes.
ALTER TABLE bills ADD COLUMN notes_version integer;

CREATE FUNCTION routemap_refuse_notes_unwritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'bill % has a line with a note: only a routemap that knows notes may change it', NEW.id
        USING ERRCODE = 'check_violation';
END
$$;
CREATE TRIGGER bills_notes_written BEFORE INSERT OR UPDATE ON bills
    FOR EACH ROW WHEN (NEW.notes_version IS NOT NULL AND NEW.notes_version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION routemap_refuse_notes_unwritten();
