-- Split tender (POST /v1/bills/{billId}/pay with "partial": true): a bill may be paid by
-- several payments, each with its own method, tip, tender, change and receipt number. The bill
-- stays checked out until their amounts add up to its total; the payment that does makes it
-- paid.
--
-- payments.bill_id loses its UNIQUE (0001 left it unnamed, so PostgreSQL named it
-- payments_bill_id_key); payments_bill_id finds a bill's payments, oldest first by receipt
-- number.
ALTER TABLE payments DROP CONSTRAINT payments_bill_id_key;
CREATE INDEX payments_bill_id ON payments (bill_id, receipt_number);

-- New column:
-- - paid_minor: Σ of the bill's payments' amounts as the application last wrote the bill: 0
--   until a payment, its total once paid (0 for a bill paid before this migration, or by a
--   binary from before it, whose one payment is its total). A bill with a payment is checked
--   out or paid: a partly paid bill is never reopened or voided, by any binary (an old one's
--   write leaves paid_minor as it was, and the check refuses it). The stores read a bill's
--   payments with it when it is paid or paid_minor > 0. A column with a constant default does
--   not rewrite the table.
ALTER TABLE bills
    ADD COLUMN paid_minor bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT bills_paid_minor_check CHECK (
        paid_minor >= 0 AND paid_minor <= total_minor AND (paid_minor = 0 OR status IN ('checked_out', 'paid')));

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration checks a payment's amount against the bill's total, not
-- against what is still due: it would take the whole total again on a partly paid bill. So the
-- store refuses any payment that would take a bill's payments beyond its total, whoever
-- inserts it. The bill's row is locked first (every binary's paying transaction holds it
-- already), so two payments of one bill are summed one after the other, each seeing the other
-- once committed (READ COMMITTED: the sum is a statement of its own, after the lock).
CREATE FUNCTION routemap_refuse_payment_beyond_total() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
    paid  bigint;
BEGIN
    SELECT total_minor INTO total FROM bills WHERE id = NEW.bill_id FOR UPDATE;
    SELECT coalesce(sum(amount_minor), 0) INTO paid FROM payments WHERE bill_id = NEW.bill_id;
    IF paid + NEW.amount_minor > total THEN
        RAISE EXCEPTION 'payments of bill % would sum beyond its total', NEW.bill_id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER payments_within_bill_total BEFORE INSERT ON payments
    FOR EACH ROW EXECUTE FUNCTION routemap_refuse_payment_beyond_total();
