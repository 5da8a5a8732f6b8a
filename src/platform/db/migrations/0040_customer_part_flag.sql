-- A message that is one part of a customer's own long message (SMPP server) is flagged at insert, so the
-- dispatcher's claim looks its concatenation fields up in smpp_parts for those alone, not for every message.
ALTER TABLE "messages" ADD COLUMN "customer_part" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "messages" SET "customer_part" = true
WHERE "id" IN (SELECT "message_id" FROM "smpp_parts") AND "status" IN ('queued', 'scheduled');
