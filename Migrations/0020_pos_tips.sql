-- Tips (POST /v1/bills/{billId}/pay's tipMinor): a payment records the customer's tip, on top of
-- the bill's total. The tip is not a sale: amount_minor stays the bill's total (what the sales
-- report's takings and the refunds' limit are made of); the tender pays the amount and the tip,
-- so cash change is tendered - amount - tip, and card tenders exactly amount + tip.
--
-- SQLite cannot change a CHECK constraint, so payments is rebuilt as 0019 rebuilt it (the
-- migration runs with foreign keys off; they are checked before it commits: refunds reference
-- payments by id, which is kept, as is each row's rowid). Every payment from before has no tip.
-- New column:
-- - tip_minor: at least 0, 0 by default (a payment written without it has no tip).
CREATE TABLE payments_rebuilt (
    id             TEXT    NOT NULL PRIMARY KEY,
    -- UNIQUE: a bill is paid at most once.
    bill_id        TEXT    NOT NULL UNIQUE REFERENCES bills (id),
    method         TEXT    NOT NULL CHECK (method IN ('card', 'cash')),
    amount_minor   INTEGER NOT NULL CHECK (amount_minor >= 0),
    tendered_minor INTEGER NOT NULL,
    change_minor   INTEGER NOT NULL,
    created_at     TEXT    NOT NULL,
    receipt_number INTEGER NOT NULL CHECK (receipt_number >= 1),
    tip_minor      INTEGER NOT NULL DEFAULT 0 CHECK (tip_minor >= 0),
    CHECK (tendered_minor >= amount_minor + tip_minor),
    CHECK (change_minor = tendered_minor - amount_minor - tip_minor),
    CHECK (method = 'cash' OR change_minor = 0)
) STRICT;

INSERT INTO payments_rebuilt
    (rowid, id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at, receipt_number, tip_minor)
SELECT rowid, id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at, receipt_number, 0
FROM payments;

DROP TABLE payments;
ALTER TABLE payments_rebuilt RENAME TO payments;

-- 0017's and 0019's indexes went with the old table.
CREATE INDEX payments_created_at ON payments (created_at);
CREATE UNIQUE INDEX payments_receipt_number ON payments (receipt_number);
