-- GET /messages' number fragment (to=), text (q=) and Sender ID (sender=) filters are looked up in message_search,
-- an insert-only copy of each message's searchable columns, instead of a GIN index on messages (decision 0087):
-- that index took all of a row's trigrams again on every non-HOT update (the `sent` write, the receipt); this
-- table is written once per message, by a statement trigger that covers every insert path, and again only when
-- retention clears the body. Its rows go with their message (ON DELETE CASCADE). Every step may already have been
-- done by an operator beforehand, without holding sends (docs/operations.md): IF NOT EXISTS, OR REPLACE, ON CONFLICT.
CREATE TABLE IF NOT EXISTS "message_search" (
  "message_id" uuid PRIMARY KEY REFERENCES "messages"("id") ON DELETE CASCADE,
  "account_id" uuid NOT NULL,
  "recipient" text NOT NULL,
  "sender" text NOT NULL,
  "body" text
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "message_search_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "message_search" ("message_id", "account_id", "recipient", "sender", "body")
  SELECT "id", "account_id", "recipient", "sender", "body" FROM "inserted_messages";
  RETURN NULL;
END $$;--> statement-breakpoint
-- Once per statement, not per row: a batch of a thousand messages is one insert into the side table.
CREATE OR REPLACE TRIGGER "messages_search_fill" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS "inserted_messages"
FOR EACH STATEMENT EXECUTE FUNCTION "message_search_fill"();--> statement-breakpoint
-- The existing messages, before the index is built (one build is faster than a million index inserts).
INSERT INTO "message_search" ("message_id", "account_id", "recipient", "sender", "body")
SELECT "id", "account_id", "recipient", "sender", "body" FROM "messages"
ON CONFLICT ("message_id") DO NOTHING;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "message_search_idx" ON "message_search" USING gin ("account_id", lower("sender"), "recipient" gin_trgm_ops, "body" gin_trgm_ops);--> statement-breakpoint
-- status=cancelled (rare: a scheduled message withdrawn): rows enter this index only when cancelled, so sends pay
-- nothing for it, as for messages_failed_idx.
CREATE INDEX IF NOT EXISTS "messages_cancelled_idx" ON "messages" USING btree ("account_id", "created_at") WHERE "status" = 'cancelled';--> statement-breakpoint
DROP INDEX IF EXISTS "messages_search_idx";
