-- GET /messages and its export: a filter that matches few of the account's messages (a number fragment or text,
-- a Sender ID, a rare status) is looked up in one GIN index within the account (btree_gin keys for account_id,
-- status and lower(sender); pg_trgm trigrams for to= fragments and q= text) instead of walking the account's
-- messages newest first until enough match; the planner still walks messages_report_idx when a filter matches
-- often. Both extensions are trusted: the database's owner may create them. IF NOT EXISTS: an operator may build
-- the index CONCURRENTLY before upgrading (docs/operations.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_search_idx" ON "messages" USING gin ("account_id", "status", lower("sender"), "recipient" gin_trgm_ops, "body" gin_trgm_ops);
