-- The columns that name a bill compare as bills.id does (COLLATE "C", byte by byte). With the
-- database's default collation on bill_lines.bill_id, the join of a bill with its lines
-- compared in "C", which that table's index (in the default collation) cannot answer: every
-- read of a bill scanned all the lines of every bill. Equality is the same in both collations,
-- so no row changes; the indexes are rebuilt.

ALTER TABLE bill_lines ALTER COLUMN bill_id TYPE text COLLATE "C";
ALTER TABLE payments ALTER COLUMN bill_id TYPE text COLLATE "C";
