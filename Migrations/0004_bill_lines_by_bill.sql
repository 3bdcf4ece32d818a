-- Bill lines stored with their bill: a WITHOUT ROWID table keyed by (bill_id, position), so a
-- bill's lines sit together and adding a line writes one b-tree page instead of four (the rowid
-- table, the line_id key, the (bill_id, position) key and the menu item index). Measured:
-- about twice the commit rate of an add-item transaction (BENCHMARKS.md).
--
-- Decided with it:
-- - line_id is no longer a key. Lines are found by bill and position; line ids are 22 random
--   base62 characters (131 bits), unique without an index.
-- - No index on menu_item_id. The foreign key stays; deleting or renaming a menu item (only a
--   migration does) scans the lines once instead of every sale paying for the index.

CREATE TABLE bill_lines_by_bill (
    bill_id          TEXT    NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    -- Order on the bill: 0, 1, 2... (order added).
    position         INTEGER NOT NULL CHECK (position >= 0),
    line_id          TEXT    NOT NULL,
    menu_item_id     TEXT    NOT NULL REFERENCES menu_items (id),
    -- Name and price as they were when the line was added.
    name             TEXT    NOT NULL,
    quantity         INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 999),
    unit_price_minor INTEGER NOT NULL CHECK (unit_price_minor >= 0),
    PRIMARY KEY (bill_id, position)
) STRICT, WITHOUT ROWID;

INSERT INTO bill_lines_by_bill (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor)
SELECT bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor FROM bill_lines;

DROP TABLE bill_lines;
ALTER TABLE bill_lines_by_bill RENAME TO bill_lines;
