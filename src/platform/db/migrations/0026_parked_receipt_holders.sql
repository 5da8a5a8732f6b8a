-- A parked receipt (one that overtook its submit_sm_resp) keeps the handset it reports on, so the transaction
-- that records a resent message can settle its first copy's receipt, and the other readings of an id whose form
-- the carrier has not learnt (hex or decimal), so a receipt finds its message under either
-- (docs/decisions/0060-parked-receipts-found-by-holder.md).
ALTER TABLE "pending_receipts" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "pending_receipts" ADD COLUMN "other_ids" text[];--> statement-breakpoint
CREATE INDEX "pending_receipts_recipient_idx" ON "pending_receipts" USING btree ("carrier","recipient") WHERE "recipient" is not null;--> statement-breakpoint
CREATE INDEX "pending_receipts_other_ids_idx" ON "pending_receipts" USING gin ("other_ids") WHERE "other_ids" is not null;
