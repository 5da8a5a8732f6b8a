-- A message that carries its customer's own validity period (SMPP server) is flagged at insert, so the dispatcher's
-- claim reads the period from smpp_validity for those alone (decision 0090), and no other submit looks it up.
ALTER TABLE "messages" ADD COLUMN "customer_validity" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "messages" SET "customer_validity" = true
WHERE "id" IN (SELECT "message_id" FROM "smpp_validity") AND "status" IN ('queued', 'scheduled');
