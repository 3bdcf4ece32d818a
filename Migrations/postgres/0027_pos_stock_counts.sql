-- Stock counts ("12 croissants left", sold out at 0): how many of a menu item are on the shelf,
-- for the items a shop counts; NULL: not counted. As SQLite's 0027 (see its decisions).
--
-- Adding a nullable column does not rewrite the table; its check is added NOT VALID, so it does
-- not scan the items already there (all NULL) under the table's lock, and holds for every row
-- written from now on.
ALTER TABLE menu_items ADD COLUMN stock integer;
ALTER TABLE menu_items ADD CONSTRAINT menu_items_stock_at_most
    CHECK (stock IS NULL OR stock <= 100000) NOT VALID;

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration knows nothing of counts: it sells a counted item whatever
-- its count (even at 0), and its payments take nothing off the counts. No guard refuses that,
-- unlike notes (0025) or discounts (0021), which are money and what a bill says: a count is
-- the shop's estimate of its shelf, already allowed to be wrong (it may go below 0), and set
-- again by the manager. Set counts once every node runs a binary that knows them; until then a
-- count may stay too high by what the old nodes sold. An old node's change of an item leaves its
-- count as it was (it writes the columns it knows only).
