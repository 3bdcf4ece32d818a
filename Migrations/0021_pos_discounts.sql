-- Discounts (PUT and DELETE /v1/bills/{billId}/discount): a bill has at most one, a percentage
-- of its subtotal or an amount off it, with the reason given. While the bill is open the
-- application works out what it takes off from the lines on every change.
--
-- New columns:
-- - discount_percent_bps, discount_amount_minor: the discount as given, at most one of them.
-- - discount_reason: set exactly when one of them is (1 to 200 characters, as void_reason).
-- - discount_minor: what the discount takes off the lines' sum, 0 without one.
--
-- subtotal_minor now holds the discounted subtotal (the lines' sum less discount_minor): what
-- the tax is on. So 0001's check total_minor = subtotal_minor + tax_minor still holds, and the
-- lines' sum (the gross the sales report shows) is subtotal_minor + discount_minor. A bill
-- without a discount reads as it did.
ALTER TABLE bills ADD COLUMN discount_percent_bps INTEGER CHECK (discount_percent_bps BETWEEN 1 AND 10000);
ALTER TABLE bills ADD COLUMN discount_amount_minor INTEGER CHECK (discount_amount_minor BETWEEN 1 AND 10000000000000);
ALTER TABLE bills ADD COLUMN discount_reason TEXT CHECK (length(discount_reason) BETWEEN 1 AND 200);
-- The last column carries the check across the four (SQLite adds no table constraint to a
-- table): a reason exactly with one kind, never both kinds, and nothing off without a discount.
ALTER TABLE bills ADD COLUMN discount_minor INTEGER NOT NULL DEFAULT 0 CHECK (
    discount_minor >= 0
    AND (discount_reason IS NOT NULL) = (discount_percent_bps IS NOT NULL OR discount_amount_minor IS NOT NULL)
    AND (discount_percent_bps IS NULL OR discount_amount_minor IS NULL)
    AND (discount_reason IS NOT NULL OR discount_minor = 0));
