-- Menu item modifiers (oat milk, an extra shot): a menu item may have modifier groups, in order,
-- each with options in order; adding the item to a bill chooses options, and the line keeps each
-- chosen option's name and price as they were (bill_line_modifiers), as it keeps the item's.
-- The line's unit_price_minor is the item's price plus its options': totals, reports and refunds
-- read lines as before. As SQLite's 0023 (see its decisions), and a guard for rolling upgrades.

CREATE TABLE menu_modifier_groups (
    menu_item_id text    NOT NULL REFERENCES menu_items (id) ON DELETE CASCADE,
    id           text    NOT NULL CHECK (char_length(id) BETWEEN 1 AND 64),
    name         text    NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    min_choices  integer NOT NULL CHECK (min_choices >= 0),
    max_choices  integer NOT NULL CHECK (max_choices BETWEEN 1 AND 20 AND max_choices >= min_choices),
    -- Order within the item: 0, 1, 2...
    position     integer NOT NULL CHECK (position BETWEEN 0 AND 9),
    PRIMARY KEY (menu_item_id, id),
    UNIQUE (menu_item_id, position)
);

CREATE TABLE menu_modifier_options (
    menu_item_id text    NOT NULL,
    group_id     text    NOT NULL,
    id           text    NOT NULL CHECK (char_length(id) BETWEEN 1 AND 64),
    name         text    NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    price_minor  bigint  NOT NULL CHECK (price_minor BETWEEN 0 AND 10000000),
    -- Order within the group: 0, 1, 2...
    position     integer NOT NULL CHECK (position BETWEEN 0 AND 19),
    PRIMARY KEY (menu_item_id, id),
    FOREIGN KEY (menu_item_id, group_id) REFERENCES menu_modifier_groups (menu_item_id, id) ON DELETE CASCADE,
    -- Also the foreign key's index: deleting a group finds its options without a scan.
    UNIQUE (menu_item_id, group_id, position)
);

CREATE TABLE bill_line_modifiers (
    bill_id     text    NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    line_id     text    NOT NULL,
    -- Order on the line (menu order when it was added): 0, 1, 2...
    position    integer NOT NULL CHECK (position >= 0),
    option_id   text    NOT NULL CHECK (char_length(option_id) BETWEEN 1 AND 64),
    -- Name and price as they were when the line was added.
    name        text    NOT NULL CHECK (char_length(name) >= 1),
    price_minor bigint  NOT NULL CHECK (price_minor >= 0),
    PRIMARY KEY (bill_id, line_id, position)
);

-- Every change to an item's groups or options is a menu change (0001's function).
CREATE TRIGGER menu_modifier_groups_changed AFTER INSERT OR UPDATE OR DELETE ON menu_modifier_groups
    FOR EACH STATEMENT EXECUTE FUNCTION routemap_bump_menu_revision();
CREATE TRIGGER menu_modifier_options_changed AFTER INSERT OR UPDATE OR DELETE ON menu_modifier_options
    FOR EACH STATEMENT EXECUTE FUNCTION routemap_bump_menu_revision();

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration knows nothing of modifiers: adding an item, it raises the
-- first line of that item, whatever options the line has (a plain latte would become a second
-- oat latte), and removing a line it rewrites the bill's lines without their options. So every
-- binary that knows modifiers writes modifier_stamp = quantity with each line it writes; a line
-- written otherwise (an old binary's INSERT, or its UPDATE of the quantity alone) is refused when
-- the line has modifiers: an old node cannot change such a line, nor rewrite a bill holding one.
-- It still adds, changes and removes lines of bills without modifiers, whose lines the check
-- (one lookup by the modifiers' key) finds none for. Operators define modifiers only once every
-- node runs the new binary (README, Running several nodes); this keeps a bill right if one does
-- not. Adding a nullable column does not rewrite the table.
ALTER TABLE bill_lines ADD COLUMN modifier_stamp integer;

CREATE FUNCTION routemap_refuse_modifiers_unwritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM bill_line_modifiers m WHERE m.bill_id = NEW.bill_id AND m.line_id = NEW.line_id) THEN
        RAISE EXCEPTION 'line % of bill % has modifiers: only a routemap that knows modifiers may change it', NEW.line_id, NEW.bill_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER bill_lines_modifiers_written BEFORE INSERT OR UPDATE ON bill_lines
    FOR EACH ROW WHEN (NEW.modifier_stamp IS DISTINCT FROM NEW.quantity)
    EXECUTE FUNCTION routemap_refuse_modifiers_unwritten();
