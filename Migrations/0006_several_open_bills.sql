-- Several open orders per till: a bill can be voided (with a reason, keeping its lines), and
-- the current bill is the unsettled one selected last (created or resumed), not the newest.
--
-- SQLite cannot change a CHECK constraint, so bills is rebuilt (the migration runs with
-- foreign keys off; they are checked before it commits). New columns:
-- - selected_at: when the bill last became its device's current bill (its creation for the
--   bills before this migration).
-- - void_reason, voided_at: set exactly when the bill is voided.

CREATE TABLE bills_rebuilt (
    id             TEXT    NOT NULL PRIMARY KEY,
    status         TEXT    NOT NULL CHECK (status IN ('open', 'checked_out', 'paid', 'voided')),
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
    -- The device that owns the bill; NULL for bills from before devices existed.
    device_id      TEXT,
    selected_at    TEXT    NOT NULL,
    void_reason    TEXT    CHECK (length(void_reason) BETWEEN 1 AND 200),
    voided_at      TEXT,
    CHECK ((status = 'voided') = (void_reason IS NOT NULL) AND (void_reason IS NULL) = (voided_at IS NULL))
) STRICT;

INSERT INTO bills_rebuilt
    (rowid, id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at, updated_at,
     device_id, selected_at)
SELECT rowid, id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at, updated_at,
       device_id, created_at
FROM bills;

DROP TABLE bills;
ALTER TABLE bills_rebuilt RENAME TO bills;

-- A device's unsettled bills (its open orders; paid and voided bills, the vast majority, are
-- not in it): for its current bill and for listing them.
CREATE INDEX bills_unsettled_by_device ON bills (device_id, created_at DESC) WHERE status IN ('open', 'checked_out');
