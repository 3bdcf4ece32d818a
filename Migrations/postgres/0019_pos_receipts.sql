-- Receipts (GET /v1/bills/{billId}/receipt): every payment gets a receipt number, 1 for the
-- store's first payment, then one more for each, with no gaps and never reused, whichever node
-- takes it.
--
-- A sequence would leave gaps (a rolled-back payment's number is not given back), and
-- max(receipt_number) + 1 would give two nodes the same number. So the numbers come from one
-- counter row, receipt_counter, which the paying transaction raises with UPDATE … RETURNING
-- just before it inserts the payment: the row stays locked until that transaction ends, so the
-- next payment, on any node, waits and then takes the following number; a rollback undoes the
-- raise, so no number is lost. This serializes payments across nodes for the rest of each
-- paying transaction (its insert, its answer recorded under its key, and its commit), which a
-- shop's rate of payments allows.
--
-- Payments from before this migration are numbered in the order they were made (created_at,
-- then id in byte order, as SQLite compares), then the column becomes NOT NULL, and the
-- counter starts at the highest number given.
ALTER TABLE payments ADD COLUMN receipt_number bigint;

UPDATE payments p SET receipt_number = numbered.n
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id COLLATE "C") AS n FROM payments) numbered
WHERE numbered.id = p.id;

ALTER TABLE payments ALTER COLUMN receipt_number SET NOT NULL;
ALTER TABLE payments ADD CONSTRAINT payments_receipt_number_check CHECK (receipt_number >= 1);
CREATE UNIQUE INDEX payments_receipt_number ON payments (receipt_number);

-- One row: the last receipt number given.
CREATE TABLE receipt_counter (
    id          integer NOT NULL PRIMARY KEY CHECK (id = 1),
    last_number bigint  NOT NULL CHECK (last_number >= 0)
);
INSERT INTO receipt_counter (id, last_number) SELECT 1, coalesce(max(receipt_number), 0) FROM payments;

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration inserts its payments without a number. This trigger gives
-- such a payment the counter's next number in its own transaction, as the new binary does, so
-- the old node keeps paying and the numbers stay gapless until every node is replaced.
CREATE FUNCTION routemap_number_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE receipt_counter SET last_number = last_number + 1 WHERE id = 1
    RETURNING last_number INTO NEW.receipt_number;
    RETURN NEW;
END
$$;
CREATE TRIGGER payments_numbered_by_counter BEFORE INSERT ON payments
    FOR EACH ROW WHEN (NEW.receipt_number IS NULL) EXECUTE FUNCTION routemap_number_receipt();
