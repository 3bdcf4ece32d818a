-- Idempotency keys record their answer as one opaque value that the API layer encodes and
-- decodes (status, every header field, body), instead of status, body and location columns
-- from which the API had to guess the rest. The format, written by RoutemapAPI's
-- RecordedAnswerCoding, is HTTP/1.1-like:
--   <status> CRLF (<name>: <value> CRLF)* CRLF <body bytes>
-- Keys recorded before this migration are converted, with the Content-Type their answers
-- were sent with (problem+json for 4xx/5xx, JSON otherwise), so a retry across the upgrade
-- still gets its recorded answer, never a second payment.
CREATE TABLE idempotency_answers (
    device_id   TEXT    NOT NULL REFERENCES devices (id),
    key         TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- Method, path and canonical body of the first request, hashed.
    fingerprint TEXT    NOT NULL,
    answer      BLOB    NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (device_id, key)
) STRICT;

INSERT INTO idempotency_answers (device_id, key, fingerprint, answer, created_at)
SELECT device_id, key, fingerprint,
       CAST(status || char(13, 10)
            || 'Content-Type: ' || CASE WHEN status >= 400 THEN 'application/problem+json' ELSE 'application/json' END
            || char(13, 10)
            || COALESCE('Location: ' || location || char(13, 10), '')
            || char(13, 10)
            || CAST(body AS TEXT) AS BLOB),
       created_at
FROM idempotency_keys;

DROP TABLE idempotency_keys;
ALTER TABLE idempotency_answers RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
