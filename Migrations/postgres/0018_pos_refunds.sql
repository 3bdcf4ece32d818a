-- Refunds (POST /v1/bills/{billId}/refund): money a manager gives back on a paid bill, a
-- customer's return or an overcharge. A bill may have several, together at most its payment
-- (the application sums them under the bill's row lock). A refund goes back by its payment's
-- method, so it has no method of its own: the payment's is read through payment_id.
-- - seq: insertion order, breaking ties between refunds made in the same millisecond (SQLite's rowid).
-- - bill_id: compared as bills.id is (COLLATE "C", as 0015 made the other bill references).
-- - amount_minor > 0: a refund of nothing is not one.
-- - reason: 1 to 200 characters, as a voided bill's void_reason.
-- - device_id: the manager's device that made it.
-- Indexes: by bill (a bill's refunds, summed before each new one) and by created_at (the sales
-- report's period, as payments_created_at).
CREATE TABLE refunds (
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    id           text   NOT NULL PRIMARY KEY,
    bill_id      text   COLLATE "C" NOT NULL REFERENCES bills (id),
    payment_id   text   NOT NULL REFERENCES payments (id),
    amount_minor bigint NOT NULL CHECK (amount_minor > 0),
    reason       text   NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 200),
    device_id    text   NOT NULL REFERENCES devices (id),
    created_at   timestamptz NOT NULL
);
CREATE INDEX refunds_bill_id ON refunds (bill_id);
CREATE INDEX refunds_created_at ON refunds (created_at);
