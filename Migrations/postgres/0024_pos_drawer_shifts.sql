-- Cash drawer shifts (cash-up, POST /v1/shifts): a device opens a shift with the float it put
-- in its drawer, records cash paid in or out of the drawer, and closes the shift with the cash
-- it counted; the shift's report says what the drawer should hold and whether it is over or
-- short. Shifts are optional: paying needs none.
--
-- Decided with it:
-- - payments.device_id: the device that took the payment; NULL for payments from before this
--   migration, or made by a node still on the binary from before it (none was recorded). A
--   shift's report finds its device's payments by created_at (payments_created_at, 0017)
--   within the shift, so the column has no index, and no foreign key (the device is the
--   authenticated caller, and devices are never deleted; a key check would read and lock the
--   device's row in every payment): paying writes it and does nothing more. A nullable column
--   without a default does not rewrite the table. Refunds already record their device (0018).
-- - A shift's cash: the float, plus what its device's cash payments left in the drawer
--   (tendered − change: the amount and the cash tip), less its device's cash refunds, plus its
--   pay-ins, less its pay-outs, each made between opened_at and closed_at (both included).
-- - expected_cash_minor is fixed at close, so a closed shift's report never changes;
--   closed_at, counted_cash_minor and it are set together, or none is. A device opens and
--   closes its own drawer only, so who opened and who closed it is device_id: not stored again.
-- - At most one open shift per device: drawer_shifts_open_by_device, a partial unique index.
--   The application changes a device's shifts under an advisory lock on the device, one
--   change at a time, so the index is a last guard, never the answer to a second open.
-- - drawer_movements: cash paid into (pay_in) or out of (pay_out) an open shift's drawer,
--   amount > 0, with a reason of 1 to 200 characters (as a refund's), by the shift's device.
--   seq: insertion order, breaking ties within a millisecond.
ALTER TABLE payments ADD COLUMN device_id text;

CREATE TABLE drawer_shifts (
    id                  text        NOT NULL PRIMARY KEY,
    -- The till whose drawer it is.
    device_id           text        NOT NULL REFERENCES devices (id),
    opened_at           timestamptz NOT NULL,
    opening_float_minor bigint      NOT NULL CHECK (opening_float_minor >= 0),
    closed_at           timestamptz,
    counted_cash_minor  bigint      CHECK (counted_cash_minor >= 0),
    expected_cash_minor bigint,
    CHECK ((closed_at IS NULL) = (counted_cash_minor IS NULL)
        AND (closed_at IS NULL) = (expected_cash_minor IS NULL)),
    CHECK (closed_at IS NULL OR closed_at >= opened_at)
);
CREATE UNIQUE INDEX drawer_shifts_open_by_device ON drawer_shifts (device_id) WHERE closed_at IS NULL;
CREATE INDEX drawer_shifts_opened_at ON drawer_shifts (device_id, opened_at);

CREATE TABLE drawer_movements (
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    id           text   NOT NULL PRIMARY KEY,
    shift_id     text   NOT NULL REFERENCES drawer_shifts (id),
    kind         text   NOT NULL CHECK (kind IN ('pay_in', 'pay_out')),
    amount_minor bigint NOT NULL CHECK (amount_minor > 0),
    reason       text   NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 200),
    device_id    text   NOT NULL REFERENCES devices (id),
    created_at   timestamptz NOT NULL
);
CREATE INDEX drawer_movements_shift_id ON drawer_movements (shift_id);
