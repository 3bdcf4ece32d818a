-- Devices get a role (a till, or a manager who also manages devices and the menu), can be
-- revoked, and can rotate their token. A revoked device's row stays, so its bills keep their
-- owner; its token opens nothing. Devices enrolled before roles existed are tills.

ALTER TABLE devices ADD COLUMN role TEXT NOT NULL DEFAULT 'till' CHECK (role IN ('till', 'manager'));
ALTER TABLE devices ADD COLUMN revoked_at TEXT;
-- SHA-256 of a rotated token not used yet: it replaces token_digest on its first use, so a
-- device that lost the answer to a rotation still has its old token.
ALTER TABLE devices ADD COLUMN next_token_digest BLOB CHECK (next_token_digest IS NULL OR length(next_token_digest) = 32);
CREATE UNIQUE INDEX devices_next_token ON devices (next_token_digest) WHERE next_token_digest IS NOT NULL;
