-- Refunds (POST /v1/bills/{billId}/refund): money a manager gives back on a paid bill, a
-- customer's return or an overcharge. A bill may have several, together at most its payment
-- (the application checks the sum, one writer at a time). A refund goes back by its payment's
-- method, so it has no method of its own: the payment's is read through payment_id.
-- - amount_minor > 0: a refund of nothing is not one.
-- - reason: 1 to 200 characters, as a voided bill's void_reason.
-- - device_id: the manager's device that made it.
-- Indexes: by bill (a bill's refunds, summed before each new one) and by created_at (the sales
-- report's period, as payments_created_at). Timestamps are fixed-width UTC text, so text order
-- is time order.
CREATE TABLE refunds (
    id           TEXT    NOT NULL PRIMARY KEY,
    bill_id      TEXT    NOT NULL REFERENCES bills (id),
    payment_id   TEXT    NOT NULL REFERENCES payments (id),
    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
    reason       TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
    device_id    TEXT    NOT NULL REFERENCES devices (id),
    created_at   TEXT    NOT NULL
) STRICT;
CREATE INDEX refunds_bill_id ON refunds (bill_id);
CREATE INDEX refunds_created_at ON refunds (created_at);
