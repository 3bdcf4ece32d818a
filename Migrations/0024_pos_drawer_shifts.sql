-- Cash drawer shifts (cash-up, POST /v1/shifts): a device opens a shift with the float it put
-- in its drawer, records cash paid in or out of the drawer, and closes the shift with the cash
-- it counted; the shift's report says what the drawer should hold and whether it is over or
-- short. Shifts are optional: paying needs none.
--
-- Decided with it:
-- - payments.device_id: the device that took the payment; NULL for payments from before this
--   migration (none was recorded). A shift's report finds its device's payments by created_at
--   (payments_created_at, 0017) within the shift, so the column has no index, and no foreign
--   key (the device is the authenticated caller, and devices are never deleted): paying writes
--   it and does nothing more. Refunds already record their device (0018).
-- - A shift's cash: the float, plus what its device's cash payments left in the drawer
--   (tendered − change: the amount and the cash tip), less its device's cash refunds, plus its
--   pay-ins, less its pay-outs, each made between opened_at and closed_at (both included).
-- - expected_cash_minor is fixed at close, so a closed shift's report never changes;
--   closed_at, counted_cash_minor and it are set together, or none is. A device opens and
--   closes its own drawer only, so who opened and who closed it is device_id: not stored again.
-- - At most one open shift per device: drawer_shifts_open_by_device, a partial unique index.
-- - drawer_movements: cash paid into (pay_in) or out of (pay_out) an open shift's drawer,
--   amount > 0, with a reason of 1 to 200 characters (as a refund's), by the shift's device.
-- Timestamps are fixed-width UTC text, so text order is time order.
ALTER TABLE payments ADD COLUMN device_id TEXT;

CREATE TABLE drawer_shifts (
    id                  TEXT    NOT NULL PRIMARY KEY,
    -- The till whose drawer it is.
    device_id           TEXT    NOT NULL REFERENCES devices (id),
    opened_at           TEXT    NOT NULL,
    opening_float_minor INTEGER NOT NULL CHECK (opening_float_minor >= 0),
    closed_at           TEXT,
    counted_cash_minor  INTEGER CHECK (counted_cash_minor >= 0),
    expected_cash_minor INTEGER,
    CHECK ((closed_at IS NULL) = (counted_cash_minor IS NULL)
        AND (closed_at IS NULL) = (expected_cash_minor IS NULL)),
    CHECK (closed_at IS NULL OR closed_at >= opened_at)
) STRICT;
CREATE UNIQUE INDEX drawer_shifts_open_by_device ON drawer_shifts (device_id) WHERE closed_at IS NULL;
CREATE INDEX drawer_shifts_opened_at ON drawer_shifts (device_id, opened_at);

CREATE TABLE drawer_movements (
    id           TEXT    NOT NULL PRIMARY KEY,
    shift_id     TEXT    NOT NULL REFERENCES drawer_shifts (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('pay_in', 'pay_out')),
    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
    reason       TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
    device_id    TEXT    NOT NULL REFERENCES devices (id),
    created_at   TEXT    NOT NULL
) STRICT;
CREATE INDEX drawer_movements_shift_id ON drawer_movements (shift_id);
