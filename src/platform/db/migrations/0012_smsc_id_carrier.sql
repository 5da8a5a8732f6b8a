-- Which carrier (bind) each SMSC message id came from: ids are unique only per SMSC, and only for a while.
ALTER TABLE "messages" ADD COLUMN "smsc_carrier" text;--> statement-breakpoint
UPDATE "messages" SET "smsc_carrier" = 'default' WHERE "smsc_message_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "message_segments" ADD COLUMN "carrier" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_segments" DROP CONSTRAINT "message_segments_pkey";--> statement-breakpoint
ALTER TABLE "message_segments" ADD CONSTRAINT "message_segments_pkey" PRIMARY KEY ("carrier", "smsc_message_id");--> statement-breakpoint
ALTER TABLE "pending_receipts" ADD COLUMN "carrier" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_receipts" DROP CONSTRAINT "pending_receipts_pkey";--> statement-breakpoint
ALTER TABLE "pending_receipts" ADD CONSTRAINT "pending_receipts_pkey" PRIMARY KEY ("carrier", "smsc_message_id");--> statement-breakpoint
-- The expiry job's queue: sent messages still waiting for a receipt, oldest first.
CREATE INDEX "messages_awaiting_receipt_idx" ON "messages" USING btree ("sent_at") WHERE "messages"."status" = 'sent';
