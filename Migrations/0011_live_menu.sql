-- The menu changes while the server runs: items are created, changed and retired through the
-- API or `routemap menu`. A retired item stays (bill lines reference it and keep their name and
-- price), but is no longer on the menu and cannot be added to a bill; its id is never reused.
ALTER TABLE menu_items ADD COLUMN retired_at TEXT;

-- Bumped by every change to menu_items (by triggers, so even a hand-written UPDATE counts): a
-- running server compares it with the menu it serves and reloads the menu when it moved.
CREATE TABLE menu_revision (
    id       INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
) STRICT;
INSERT INTO menu_revision (id, revision) VALUES (1, 1);

CREATE TRIGGER menu_items_inserted AFTER INSERT ON menu_items BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_items_updated AFTER UPDATE ON menu_items BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_items_deleted AFTER DELETE ON menu_items BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
