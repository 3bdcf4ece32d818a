-- Menu item modifiers (oat milk, an extra shot): a menu item may have modifier groups, in order,
-- each with options in order; adding the item to a bill chooses options, and the line keeps each
-- chosen option's name and price as they were (bill_line_modifiers), as it keeps the item's.
-- The line's unit_price_minor is the item's price plus its options': totals, reports and refunds
-- read lines as before.
--
-- Decided with it:
-- - Group and option ids are slugs unique within their item (an option id within all the item's
--   groups): an add names options by id. Replacing an item's groups deletes and inserts its
--   rows; bill lines do not reference options (they keep copies), so that never touches a bill.
-- - No demo modifiers: the items of the demo menu are added with one tap by every existing
--   client; a manager adds groups through the API (README, "Modifiers").
-- - bill_line_modifiers is keyed by bill and line (bill_lines' key is the bill and the line's
--   position, which a removal rewrites): deleting a bill deletes them, and a bill's are found by
--   the key's prefix.

CREATE TABLE menu_modifier_groups (
    menu_item_id TEXT    NOT NULL REFERENCES menu_items (id) ON DELETE CASCADE,
    id           TEXT    NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
    name         TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    min_choices  INTEGER NOT NULL CHECK (min_choices >= 0),
    max_choices  INTEGER NOT NULL CHECK (max_choices BETWEEN 1 AND 20 AND max_choices >= min_choices),
    -- Order within the item: 0, 1, 2...
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 9),
    PRIMARY KEY (menu_item_id, id),
    UNIQUE (menu_item_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE menu_modifier_options (
    menu_item_id TEXT    NOT NULL,
    group_id     TEXT    NOT NULL,
    id           TEXT    NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
    name         TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    price_minor  INTEGER NOT NULL CHECK (price_minor BETWEEN 0 AND 10000000),
    -- Order within the group: 0, 1, 2...
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 19),
    PRIMARY KEY (menu_item_id, id),
    FOREIGN KEY (menu_item_id, group_id) REFERENCES menu_modifier_groups (menu_item_id, id) ON DELETE CASCADE,
    UNIQUE (menu_item_id, group_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE bill_line_modifiers (
    bill_id     TEXT    NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    line_id     TEXT    NOT NULL,
    -- Order on the line (menu order when it was added): 0, 1, 2...
    position    INTEGER NOT NULL CHECK (position >= 0),
    option_id   TEXT    NOT NULL CHECK (length(option_id) BETWEEN 1 AND 64),
    -- Name and price as they were when the line was added.
    name        TEXT    NOT NULL CHECK (length(name) >= 1),
    price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
    PRIMARY KEY (bill_id, line_id, position)
) STRICT, WITHOUT ROWID;

-- Every change to an item's groups or options is a menu change (see 0011).
CREATE TRIGGER menu_modifier_groups_inserted AFTER INSERT ON menu_modifier_groups BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_modifier_groups_updated AFTER UPDATE ON menu_modifier_groups BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_modifier_groups_deleted AFTER DELETE ON menu_modifier_groups BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_modifier_options_inserted AFTER INSERT ON menu_modifier_options BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_modifier_options_updated AFTER UPDATE ON menu_modifier_options BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER menu_modifier_options_deleted AFTER DELETE ON menu_modifier_options BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
END;
