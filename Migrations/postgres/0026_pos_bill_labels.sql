-- Bill labels ("Table 4", "Sam's tab"): the name a cashier gives a bill, so that a till holding
-- several open bills can tell them apart. As SQLite's 0026 (see its decisions).
--
-- Adding a nullable column does not rewrite the table; its check is added NOT VALID, so it
-- does not scan the bills already there (all NULL) under the table's lock, and holds for every
-- row written from now on.
ALTER TABLE bills ADD COLUMN label text;
ALTER TABLE bills ADD CONSTRAINT bills_label_length
    CHECK (label IS NULL OR char_length(label) BETWEEN 1 AND 40) NOT VALID;

-- During a rolling upgrade (migrate first, then replace the nodes), a node still running the
-- binary from before this migration knows nothing of labels. Unlike notes (0025) and discounts
-- (0021), it needs no guard: a binary writes a bill's row by naming its columns (an INSERT of a
-- new bill, an UPDATE of the columns it knows), never by deleting and inserting it again, so an
-- old node's change of a labelled bill leaves the label as it is, and the bills it opens have
-- none. The old node only answers a labelled bill without its label (its clients show the bill
-- unnamed until a new node answers), refuses a label in POST /v1/bills as an unknown member
-- (400) and knows no PUT or DELETE /v1/bills/{billId}/label: nothing it does loses a label.
