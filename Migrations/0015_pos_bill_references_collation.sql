-- Nothing to do on SQLite: PostgreSQL's 0015 gives the columns that name a bill the collation
-- of bills.id, which SQLite's text columns all have already (BINARY). The file keeps the two
-- folders' migrations from 0013 on under the same ids.
SELECT 1;
