-- What the official client libraries expect of webhooks, and dedicated numbers that cost credits.
-- Rotation without a gap: the previous secret keeps signing webhook-signature until previous_secret_until.
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_sealed" bytea;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_until" timestamp with time zone;--> statement-breakpoint
-- Auto-disable: why the service switched the endpoint off (null when the client did, or it is on).
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
-- Finished deliveries of one endpoint, newest first: the auto-disable rule reads the last 50.
CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" USING btree ("account_id","event","completed_at") WHERE "webhook_deliveries"."status" <> 'pending';--> statement-breakpoint
-- Numbers: the client's label, and rental (paid up to paid_until; unpaid_since starts the 7-day grace).
ALTER TABLE "numbers" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "numbers" ADD COLUMN "paid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "numbers" ADD COLUMN "unpaid_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "numbers_renewal_idx" ON "numbers" USING btree ("paid_until") WHERE "numbers"."account_id" is not null;--> statement-breakpoint
-- Operator setting: most dedicated numbers the account may hold (null: the service default, MAX_NUMBERS).
ALTER TABLE "accounts" ADD COLUMN "max_numbers" integer;
