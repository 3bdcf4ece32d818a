-- Devices get a role (a till, or a manager who also manages devices and the menu) and can be
-- revoked. A revoked device's row stays, so its bills keep their owner; its token opens nothing.
-- Devices enrolled before roles existed are tills.

ALTER TABLE devices ADD COLUMN role TEXT NOT NULL DEFAULT 'till' CHECK (role IN ('till', 'manager'));
ALTER TABLE devices ADD COLUMN revoked_at TEXT;
