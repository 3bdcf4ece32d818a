-- Bumped by every change to a device (by triggers, so `routemap devices` in another process
-- counts too): a running server compares it with the one its token cache was filled under and
-- forgets every cached token when it moved, instead of looking each cached token up again.
CREATE TABLE device_revision (
    id       INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
) STRICT;
INSERT INTO device_revision (id, revision) VALUES (1, 1);

CREATE TRIGGER devices_updated AFTER UPDATE ON devices BEGIN
    UPDATE device_revision SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER devices_deleted AFTER DELETE ON devices BEGIN
    UPDATE device_revision SET revision = revision + 1 WHERE id = 1;
END;
