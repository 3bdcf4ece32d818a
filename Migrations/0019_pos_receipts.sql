-- Receipts (GET /v1/bills/{billId}/receipt): every payment gets a receipt number, 1 for the
-- store's first payment, then one more for each, with no gaps and never reused. The paying
-- transaction takes one more than the highest (one writer: no other payment can take it
-- before it commits, and a rollback takes none).
--
-- Payments from before this migration are numbered in the order they were made (created_at,
-- then id: timestamps are fixed-width UTC text, so text order is time order).
--
-- SQLite cannot add a NOT NULL column without a default, so payments is rebuilt (the migration
-- runs with foreign keys off; they are checked before it commits: refunds reference payments by
-- id, which is kept, as is each row's rowid). New column:
-- - receipt_number: at least 1, UNIQUE by payments_receipt_number (which also finds the highest).
CREATE TABLE payments_rebuilt (
    id             TEXT    NOT NULL PRIMARY KEY,
    -- UNIQUE: a bill is paid at most once.
    bill_id        TEXT    NOT NULL UNIQUE REFERENCES bills (id),
    method         TEXT    NOT NULL CHECK (method IN ('card', 'cash')),
    amount_minor   INTEGER NOT NULL CHECK (amount_minor >= 0),
    tendered_minor INTEGER NOT NULL CHECK (tendered_minor >= amount_minor),
    change_minor   INTEGER NOT NULL CHECK (change_minor = tendered_minor - amount_minor),
    created_at     TEXT    NOT NULL,
    receipt_number INTEGER NOT NULL CHECK (receipt_number >= 1),
    CHECK (method = 'cash' OR change_minor = 0)
) STRICT;

INSERT INTO payments_rebuilt
    (rowid, id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at, receipt_number)
SELECT rowid, id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at,
       row_number() OVER (ORDER BY created_at, id)
FROM payments;

DROP TABLE payments;
ALTER TABLE payments_rebuilt RENAME TO payments;

-- 0017's index went with the old table.
CREATE INDEX payments_created_at ON payments (created_at);
CREATE UNIQUE INDEX payments_receipt_number ON payments (receipt_number);
