-- A device's current bill is its unsettled bill selected last (ORDER BY selected_at DESC,
-- seq DESC: PostgresTransaction.currentFirst, used by the current-bill read and by the bill
-- version check), but the index of unsettled bills was in creation order, so every look-up
-- sorted the device's unsettled bills. This index is in that order: the current bill is its
-- device's first entry, and the version check's DISTINCT ON (device_id) ... ORDER BY
-- device_id, selected_at DESC, seq DESC can read it forwards without a sort (for a few devices
-- with a bill or two each, the planner may still find a sort of those rows cheaper).
-- The listing of a device's open orders (newest created first) finds the device's unsettled
-- bills by this index too and sorts those few: a second index in creation order would be one
-- more index to maintain whenever a bill is opened, resumed or settled.
--
-- The WHERE clause is the queries' own (PostgresTransaction.unsettled), so the planner can use
-- the partial index.

DROP INDEX bills_unsettled_by_device;
CREATE INDEX bills_unsettled_by_device_selected_at ON bills (device_id, selected_at DESC, seq DESC)
    WHERE status IN ('open', 'checked_out');
