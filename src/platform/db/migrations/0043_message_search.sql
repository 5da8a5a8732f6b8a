-- The extensions behind GET /messages' search (decision 0087): pg_trgm for number fragments and text, btree_gin
-- for the account id in the same GIN index. Both are trusted: the database's owner may create them. The search
-- table and its index come in a later migration.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
