-- The menu changes while the server runs: items and categories are created, changed and retired
-- through the API (items also with `routemap menu`). A retired item stays (bill lines reference it and keep their name and
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

-- Categories, named and ordered, so a manager can add, rename and retire them. Items name theirs
-- by id; an item is created or moved only into a category on the menu (the application checks:
-- SQLite cannot add a foreign key to an existing table). Existing categories get their id,
-- capitalized, as their name, in the order of their first item.
CREATE TABLE menu_categories (
    id         TEXT    NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    name       TEXT    NOT NULL CHECK (length(name) >= 1),
    position   INTEGER NOT NULL UNIQUE,
    retired_at TEXT
) STRICT;
INSERT INTO menu_categories (id, name, position)
    SELECT category, upper(substr(category, 1, 1)) || substr(category, 2), min(position)
    FROM menu_items GROUP BY category;

CREATE TRIGGER menu_categories_inserted AFTER INSERT ON menu_categories BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_categories_updated AFTER UPDATE ON menu_categories BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
