-- Split tender (POST /v1/bills/{billId}/pay with "partial": true): a bill may be paid by
-- several payments, each with its own method, tip, tender, change and receipt number. The bill
-- stays checked out until their amounts add up to its total; the payment that does makes it
-- paid.
--
-- SQLite cannot drop a UNIQUE constraint, so payments is rebuilt without the one on bill_id, as
-- 0019 and 0020 rebuilt it (the migration runs with foreign keys off; they are checked before
-- it commits: refunds reference payments by id, which is kept, as is each row's rowid). Every
-- column, check and row stays as it was. Indexes: 0017's and 0019's again, and
-- payments_bill_id in place of the UNIQUE's (a bill's payments, oldest first by receipt number).
CREATE TABLE payments_rebuilt (
    id             TEXT    NOT NULL PRIMARY KEY,
    bill_id        TEXT    NOT NULL REFERENCES bills (id),
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
SELECT rowid, id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at, receipt_number, tip_minor
FROM payments;

DROP TABLE payments;
ALTER TABLE payments_rebuilt RENAME TO payments;

CREATE INDEX payments_created_at ON payments (created_at);
CREATE UNIQUE INDEX payments_receipt_number ON payments (receipt_number);
CREATE INDEX payments_bill_id ON payments (bill_id, receipt_number);

-- The store's own guard: a bill's payments never sum beyond its total, whoever inserts them (a
-- binary from before this migration checks a payment against the total, not against what is
-- still due, and would pay a partly paid bill twice over).
CREATE TRIGGER payments_within_bill_total BEFORE INSERT ON payments
    WHEN (SELECT coalesce(sum(amount_minor), 0) FROM payments WHERE bill_id = NEW.bill_id) + NEW.amount_minor
         > (SELECT total_minor FROM bills WHERE id = NEW.bill_id)
BEGIN
    SELECT RAISE(ABORT, 'payments of a bill would sum beyond its total');
END;

-- New column:
-- - paid_minor: Σ of the bill's payments' amounts as the application last wrote the bill: 0
--   until a payment, its total once paid (0 for a bill paid before this migration, whose one
--   payment is its total). A bill with a payment is checked out or paid: a partly paid bill is
--   never reopened or voided, by any binary. The stores read a bill's payments with it when it
--   is paid or paid_minor > 0, so a checked-out bill with none costs no query.
ALTER TABLE bills ADD COLUMN paid_minor INTEGER NOT NULL DEFAULT 0 CHECK (
    paid_minor >= 0 AND paid_minor <= total_minor AND (paid_minor = 0 OR status IN ('checked_out', 'paid')));
