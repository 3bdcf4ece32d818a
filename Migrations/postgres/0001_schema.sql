-- routemap's schema on PostgreSQL: the schema SQLite reaches through its migrations 0001 to
-- 0012 (less the demo menu, 0002 here as there), written once. SQLite's 0003 to 0012 rebuilt
-- tables step by step for databases that already held data; a PostgreSQL database starts at
-- this schema, so they have no counterpart here. A later change gets the same number and name
-- in both folders (Migrations/ and Migrations/postgres/).
--
-- Money is bigint minor units (cents). Times are timestamptz, kept to the millisecond by the
-- application. The tables, columns and checks are SQLite's, with PostgreSQL's types.

CREATE TABLE menu_categories (
    id         text    NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    name       text    NOT NULL CHECK (length(name) >= 1),
    -- Menu order.
    position   integer NOT NULL UNIQUE,
    retired_at timestamptz
);

-- A retired item stays (bill lines reference it and keep their name and price), but is no
-- longer on the menu and cannot be added to a bill; its id is never reused.
CREATE TABLE menu_items (
    id          text    NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    name        text    NOT NULL CHECK (length(name) >= 1),
    category    text    NOT NULL CHECK (length(category) >= 1),
    price_minor bigint  NOT NULL CHECK (price_minor >= 0),
    currency    text    NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    available   boolean NOT NULL DEFAULT true,
    -- Menu order.
    position    integer NOT NULL UNIQUE,
    retired_at  timestamptz
);

-- Bumped by every change to the menu (by triggers, so even a hand-written UPDATE counts): a
-- running node compares it with the menu it serves and reloads the menu when it moved.
CREATE TABLE menu_revision (
    id       integer NOT NULL PRIMARY KEY CHECK (id = 1),
    revision bigint  NOT NULL
);
INSERT INTO menu_revision (id, revision) VALUES (1, 1);

CREATE FUNCTION routemap_bump_menu_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE menu_revision SET revision = revision + 1 WHERE id = 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER menu_items_changed AFTER INSERT OR UPDATE OR DELETE ON menu_items
    FOR EACH STATEMENT EXECUTE FUNCTION routemap_bump_menu_revision();
CREATE TRIGGER menu_categories_changed AFTER INSERT OR UPDATE OR DELETE ON menu_categories
    FOR EACH STATEMENT EXECUTE FUNCTION routemap_bump_menu_revision();

-- Devices (tills and managers) and their tokens. A revoked device's row stays, so its bills
-- keep their owner; its token opens nothing.
CREATE TABLE devices (
    id                text NOT NULL PRIMARY KEY,
    name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- SHA-256 of the bearer token; the token itself is never stored.
    token_digest      bytea NOT NULL UNIQUE CHECK (length(token_digest) = 32),
    created_at        timestamptz NOT NULL,
    role              text NOT NULL DEFAULT 'till' CHECK (role IN ('till', 'manager')),
    revoked_at        timestamptz,
    -- SHA-256 of a rotated token not used yet: it replaces token_digest on its first use.
    next_token_digest bytea CHECK (next_token_digest IS NULL OR length(next_token_digest) = 32)
);
CREATE UNIQUE INDEX devices_next_token ON devices (next_token_digest) WHERE next_token_digest IS NOT NULL;

-- Bumped by every change to a device (revoked, token replaced), by any node or by `routemap
-- devices`: each node's token cache compares it and forgets every cached token when it moved.
CREATE TABLE device_revision (
    id       integer NOT NULL PRIMARY KEY CHECK (id = 1),
    revision bigint  NOT NULL
);
INSERT INTO device_revision (id, revision) VALUES (1, 1);

CREATE FUNCTION routemap_bump_device_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE device_revision SET revision = revision + 1 WHERE id = 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER devices_changed AFTER UPDATE OR DELETE ON devices
    FOR EACH STATEMENT EXECUTE FUNCTION routemap_bump_device_revision();

CREATE TABLE bills (
    -- Insertion order: breaks ties between bills selected in the same millisecond (SQLite's rowid).
    seq            bigint  GENERATED ALWAYS AS IDENTITY,
    -- Compared byte by byte, as SQLite does (bills listed newest first break ties by id).
    id             text    COLLATE "C" NOT NULL PRIMARY KEY,
    status         text    NOT NULL CHECK (status IN ('open', 'checked_out', 'paid', 'voided')),
    currency       text    NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    -- The rate the bill was opened with: 875 = 8.75 %.
    tax_rate_bps   integer NOT NULL CHECK (tax_rate_bps BETWEEN 0 AND 10000),
    -- Derived from the lines, stored for reporting; the application keeps them in step.
    subtotal_minor bigint  NOT NULL CHECK (subtotal_minor >= 0),
    tax_minor      bigint  NOT NULL CHECK (tax_minor >= 0),
    total_minor    bigint  NOT NULL CHECK (total_minor = subtotal_minor + tax_minor),
    -- 1 on creation, +1 on every change.
    version        integer NOT NULL CHECK (version >= 1),
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    -- The device that owns the bill (as in SQLite, not a foreign key).
    device_id      text,
    -- When the bill last became its device's current bill (created or resumed).
    selected_at    timestamptz NOT NULL,
    void_reason    text CHECK (char_length(void_reason) BETWEEN 1 AND 200),
    voided_at      timestamptz,
    CHECK ((status = 'voided') = (void_reason IS NOT NULL) AND (void_reason IS NULL) = (voided_at IS NULL))
);

-- A device's unsettled bills (its open orders; paid and voided bills, the vast majority, are
-- not in it): for its current bill and for listing them.
CREATE INDEX bills_unsettled_by_device ON bills (device_id, created_at DESC) WHERE status IN ('open', 'checked_out');

CREATE TABLE bill_lines (
    bill_id          text    NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    -- Order on the bill: 0, 1, 2... (order added).
    position         integer NOT NULL CHECK (position >= 0),
    line_id          text    NOT NULL,
    menu_item_id     text    NOT NULL REFERENCES menu_items (id),
    -- Name and price as they were when the line was added.
    name             text    NOT NULL,
    quantity         integer NOT NULL CHECK (quantity BETWEEN 1 AND 999),
    unit_price_minor bigint  NOT NULL CHECK (unit_price_minor >= 0),
    PRIMARY KEY (bill_id, position)
);

CREATE TABLE payments (
    id             text   NOT NULL PRIMARY KEY,
    -- UNIQUE: a bill is paid at most once.
    bill_id        text   NOT NULL UNIQUE REFERENCES bills (id),
    method         text   NOT NULL CHECK (method IN ('card', 'cash')),
    amount_minor   bigint NOT NULL CHECK (amount_minor >= 0),
    tendered_minor bigint NOT NULL CHECK (tendered_minor >= amount_minor),
    change_minor   bigint NOT NULL CHECK (change_minor = tendered_minor - amount_minor),
    created_at     timestamptz NOT NULL,
    CHECK (method = 'cash' OR change_minor = 0)
);

-- Answers recorded for requests made with an Idempotency-Key, as opaque bytes RoutemapAPI's
-- RecordedAnswerCoding writes (status, header fields, body). The primary key is what arbitrates
-- a key between nodes: two transactions recording the same device and key cannot both commit.
CREATE TABLE idempotency_keys (
    device_id   text  NOT NULL REFERENCES devices (id),
    key         text  NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- Method, path and canonical body of the first request, hashed.
    fingerprint text  NOT NULL,
    answer      bytea NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (device_id, key)
);
-- Expiry: keys older than 24 hours are deleted by the sweeper.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
