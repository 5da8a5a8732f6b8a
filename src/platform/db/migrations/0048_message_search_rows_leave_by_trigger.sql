-- message_search's rows leave with their message through a statement trigger on messages (decision 0089), not a
-- foreign key: the key's check took a FOR KEY SHARE lock on every new message (a WAL record and a dirtied page
-- per message) to guard deletions no path of Tasman makes. The triggers keep the guarantee for any deletion an
-- operator makes: a deleted or truncated message takes its search row with it, in the same transaction.
ALTER TABLE "message_search" DROP CONSTRAINT IF EXISTS "message_search_message_id_fkey";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "message_search_drop"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "message_search" s USING "deleted_messages" d WHERE s."message_id" = d."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "messages_search_drop" AFTER DELETE ON "messages" REFERENCING OLD TABLE AS "deleted_messages"
FOR EACH STATEMENT EXECUTE FUNCTION "message_search_drop"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "message_search_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "message_search";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "messages_search_truncate" AFTER TRUNCATE ON "messages"
FOR EACH STATEMENT EXECUTE FUNCTION "message_search_truncate"();
