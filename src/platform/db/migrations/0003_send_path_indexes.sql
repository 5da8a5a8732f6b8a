DROP INDEX "credit_ledger_account_idx";--> statement-breakpoint
DROP INDEX "credit_ledger_message_idx";--> statement-breakpoint
DROP INDEX "messages_account_created_idx";--> statement-breakpoint
CREATE INDEX "credit_ledger_refund_idx" ON "credit_ledger" USING btree ("message_id") WHERE "credit_ledger"."kind" = 'refund';--> statement-breakpoint
-- Every send updates its account row (balance, daily counter). Free space in each page lets those updates stay
-- heap-only (HOT): no index writes and no bloat on the hottest row in the system.
ALTER TABLE "accounts" SET (fillfactor = 70);
