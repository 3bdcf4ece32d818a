-- Discounts (PUT and DELETE /v1/bills/{billId}/discount): a bill has at most one, a percentage
-- of its subtotal or an amount off it, with the reason given. While the bill is open the
-- application works out what it takes off from the lines on every change.
--
-- New columns:
-- - discount_percent_bps, discount_amount_minor: the discount as given, at most one of them.
-- - discount_reason: set exactly when one of them is (1 to 200 characters, as void_reason).
-- - discount_minor: what the discount takes off the lines' sum, 0 without one.
-- - discount_version: the bill's version when a binary that knows discounts last wrote it, for
--   the rollout guard below.
--
-- subtotal_minor now holds the discounted subtotal (the lines' sum less discount_minor): what
-- the tax is on. So 0001's check total_minor = subtotal_minor + tax_minor still holds, and the
-- lines' sum (the gross the sales report shows) is subtotal_minor + discount_minor. A bill
-- without a discount reads as it did. Adding nullable columns, and one with a constant
-- default, does not rewrite the table.
ALTER TABLE bills
    ADD COLUMN discount_percent_bps integer CONSTRAINT bills_discount_percent_bps_check CHECK (discount_percent_bps BETWEEN 1 AND 10000),
    ADD COLUMN discount_amount_minor bigint
        CONSTRAINT bills_discount_amount_minor_check CHECK (discount_amount_minor BETWEEN 1 AND 10000000000000),
    ADD COLUMN discount_reason text CONSTRAINT bills_discount_reason_check CHECK (char_length(discount_reason) BETWEEN 1 AND 200),
    ADD COLUMN discount_minor bigint NOT NULL DEFAULT 0 CONSTRAINT bills_discount_minor_check CHECK (discount_minor >= 0),
    ADD COLUMN discount_version integer,
    ADD CONSTRAINT bills_discount_check CHECK (
        (discount_reason IS NOT NULL) = (discount_percent_bps IS NOT NULL OR discount_amount_minor IS NOT NULL)
        AND (discount_percent_bps IS NULL OR discount_amount_minor IS NULL)
        AND (discount_reason IS NOT NULL OR discount_minor = 0));

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration knows nothing of discounts: it would work out a discounted
-- bill's totals from its lines alone. It cannot read such a bill (its stored subtotal and tax
-- are not what its lines make), but one whose discount takes off 0 it can; so a write to a bill
-- with a discount must come from a binary that wrote the discount columns with it, which sets
-- discount_version to the version it writes. The old binary's write leaves discount_version
-- behind and is refused: it cannot change, check out or pay a discounted bill. Operators apply
-- discounts only once every node runs the new binary (README, Running several nodes).
CREATE FUNCTION routemap_refuse_discount_unwritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'bill % has a discount: only a routemap that knows discounts may change it', NEW.id
        USING ERRCODE = 'check_violation';
END
$$;
CREATE TRIGGER bills_discount_written BEFORE INSERT OR UPDATE ON bills
    FOR EACH ROW WHEN (NEW.discount_reason IS NOT NULL AND NEW.discount_version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION routemap_refuse_discount_unwritten();
