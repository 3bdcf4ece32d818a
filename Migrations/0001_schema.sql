-- routemap's schema: the menu, bills with their lines, and payments.
-- Money is INTEGER minor units (cents), never REAL. Timestamps are ISO 8601 UTC text with
-- milliseconds ('2025-11-22T07:55:00.123Z'), so text order is time order.
-- STRICT tables (SQLite 3.37+) refuse values of the wrong type instead of converting them.

CREATE TABLE menu_items (
    id          TEXT    NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    name        TEXT    NOT NULL CHECK (length(name) >= 1),
    category    TEXT    NOT NULL CHECK (length(category) >= 1),
    price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
    currency    TEXT    NOT NULL CHECK (length(currency) = 3 AND currency GLOB '[A-Z][A-Z][A-Z]'),
    available   INTEGER NOT NULL DEFAULT 1 CHECK (available IN (0, 1)),
    -- Menu order.
    position    INTEGER NOT NULL UNIQUE
) STRICT;

CREATE TABLE bills (
    id             TEXT    NOT NULL PRIMARY KEY,
    status         TEXT    NOT NULL CHECK (status IN ('open', 'checked_out', 'paid')),
    currency       TEXT    NOT NULL CHECK (length(currency) = 3 AND currency GLOB '[A-Z][A-Z][A-Z]'),
    -- The rate the bill was opened with: 875 = 8.75 %.
    tax_rate_bps   INTEGER NOT NULL CHECK (tax_rate_bps BETWEEN 0 AND 10000),
    -- Derived from the lines, stored for reporting; the application keeps them in step.
    subtotal_minor INTEGER NOT NULL CHECK (subtotal_minor >= 0),
    tax_minor      INTEGER NOT NULL CHECK (tax_minor >= 0),
    total_minor    INTEGER NOT NULL CHECK (total_minor = subtotal_minor + tax_minor),
    -- 1 on creation, +1 on every change.
    version        INTEGER NOT NULL CHECK (version >= 1),
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    -- The till that owns the bill: reserved for multi-device support, unused for now.
    device_id      TEXT
) STRICT;

-- The current bill: the newest one not yet paid. A partial index keeps it small (paid bills,
-- the vast majority, are not in it).
CREATE INDEX bills_unpaid_newest ON bills (created_at DESC) WHERE status IN ('open', 'checked_out');

CREATE TABLE bill_lines (
    line_id          TEXT    NOT NULL PRIMARY KEY,
    bill_id          TEXT    NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    menu_item_id     TEXT    NOT NULL REFERENCES menu_items (id),
    -- Name and price as they were when the line was added.
    name             TEXT    NOT NULL,
    quantity         INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 999),
    unit_price_minor INTEGER NOT NULL CHECK (unit_price_minor >= 0),
    -- Order on the bill (order added).
    position         INTEGER NOT NULL CHECK (position >= 0),
    UNIQUE (bill_id, position)
) STRICT;

-- For the foreign key: deleting or renaming a menu item must not scan every line.
CREATE INDEX bill_lines_menu_item ON bill_lines (menu_item_id);

CREATE TABLE payments (
    id             TEXT    NOT NULL PRIMARY KEY,
    -- UNIQUE: a bill is paid at most once.
    bill_id        TEXT    NOT NULL UNIQUE REFERENCES bills (id),
    method         TEXT    NOT NULL CHECK (method IN ('card', 'cash')),
    amount_minor   INTEGER NOT NULL CHECK (amount_minor >= 0),
    tendered_minor INTEGER NOT NULL CHECK (tendered_minor >= amount_minor),
    change_minor   INTEGER NOT NULL CHECK (change_minor = tendered_minor - amount_minor),
    created_at     TEXT    NOT NULL,
    CHECK (method = 'cash' OR change_minor = 0)
) STRICT;
