-- Devices (tills) and their tokens; bills owned by the device that opened them; recorded
-- answers to requests made with an Idempotency-Key.

CREATE TABLE devices (
    id           TEXT NOT NULL PRIMARY KEY,
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- SHA-256 of the bearer token; the token itself is never stored.
    token_digest BLOB NOT NULL UNIQUE CHECK (length(token_digest) = 32),
    created_at   TEXT NOT NULL
) STRICT;

-- bills.device_id (reserved in 0001) now names the owner. Bills from before devices existed
-- keep NULL and belong to no device. The current bill is looked up per device.
DROP INDEX bills_unpaid_newest;
CREATE INDEX bills_unpaid_newest_by_device ON bills (device_id, created_at DESC)
    WHERE status IN ('open', 'checked_out');

CREATE TABLE idempotency_keys (
    device_id   TEXT    NOT NULL REFERENCES devices (id),
    key         TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- Method, path and canonical body of the first request, hashed.
    fingerprint TEXT    NOT NULL,
    status      INTEGER NOT NULL CHECK (status BETWEEN 200 AND 599),
    body        BLOB    NOT NULL,
    location    TEXT,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (device_id, key)
) STRICT;

-- Expiry: keys older than 24 hours are deleted as new ones are recorded.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
