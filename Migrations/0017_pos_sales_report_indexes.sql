-- The sales report (GET /v1/reports/sales) sums the payments made in a period and the bills
-- voided in it. Without these indexes each report read every payment and every bill; with them
-- it reads the period's own rows. Timestamps are fixed-width UTC text, so the index's text order
-- is time order and `created_at >= ? AND created_at < ?` is a range of it.
-- - payments by created_at: one more index entry per payment (once per bill).
-- - voided bills by voided_at: partial, so only voided bills (few) are in it and other bills'
--   updates never touch it; the report's `voided_at >= ?` implies `voided_at IS NOT NULL`, so
--   SQLite uses the partial index.
CREATE INDEX payments_created_at ON payments (created_at);
CREATE INDEX bills_voided_at ON bills (voided_at) WHERE voided_at IS NOT NULL;
