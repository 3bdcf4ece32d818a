-- A device's current bill is its unsettled bill selected last (ORDER BY selected_at DESC,
-- rowid DESC: SQLiteTransaction.currentBillSQL), but the index of unsettled bills was in
-- creation order, so every look-up sorted the device's unsettled bills in a temporary B-tree.
-- This index is in selection order. It is ascending on purpose: SQLite appends the rowid
-- (ascending) to every index entry, so reading (device_id, selected_at) backwards yields
-- selected_at DESC, rowid DESC, the query's order, and LIMIT 1 stops at the first entry;
-- (device_id, selected_at DESC) would yield rowid ascending within a millisecond and sort again.
-- The listing of a device's open orders (newest created first) finds the device's unsettled
-- bills by this index too and sorts those few: a second index in creation order would be one
-- more B-tree to rewrite on every bill update.
--
-- The WHERE clause is the queries' own, word for word, so SQLite can use the partial index.

DROP INDEX bills_unsettled_by_device;
CREATE INDEX bills_unsettled_by_device_selected_at ON bills (device_id, selected_at) WHERE status IN ('open', 'checked_out');
