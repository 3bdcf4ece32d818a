-- Tips (POST /v1/bills/{billId}/pay's tipMinor): a payment records the customer's tip, on top of
-- the bill's total. The tip is not a sale: amount_minor stays the bill's total (what the sales
-- report's takings and the refunds' limit are made of); the tender pays the amount and the tip,
-- so cash change is tendered - amount - tip, and card tenders exactly amount + tip.
--
-- The column is NOT NULL with a default of 0, so during a rolling upgrade (migrate first, then
-- replace the nodes) a node still running the binary from before this migration, which inserts
-- its payments without it, keeps paying: its payments have no tip, and satisfy the new checks
-- exactly as they did the old ones. (0019's trigger still numbers them.) Adding a column with a
-- constant default does not rewrite the table.
ALTER TABLE payments ADD COLUMN tip_minor bigint NOT NULL DEFAULT 0 CONSTRAINT payments_tip_minor_check CHECK (tip_minor >= 0);

-- 0001's checks, with the tip: what was tendered covers the amount and the tip, and the change
-- is what is left. 0001 left them unnamed, so PostgreSQL named them payments_check
-- (tendered_minor >= amount_minor) and payments_check1 (change_minor = tendered_minor -
-- amount_minor), in the order it wrote them (a database named otherwise fails here, whole).
-- The new ones are named for what they check.
ALTER TABLE payments
    DROP CONSTRAINT payments_check,
    DROP CONSTRAINT payments_check1,
    ADD CONSTRAINT payments_tendered_minor_check CHECK (tendered_minor >= amount_minor + tip_minor),
    ADD CONSTRAINT payments_change_minor_check CHECK (change_minor = tendered_minor - amount_minor - tip_minor);
