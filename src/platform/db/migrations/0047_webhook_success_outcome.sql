-- A delivery's successful attempt is recorded in its own row, in the update that marks it delivered, instead of a
-- webhook_attempts row (decision 0088): most deliveries succeed at their first attempt, and that row cost a heap
-- insert and two index entries per message. Failed attempts stay in webhook_attempts. Null until an attempt
-- succeeds; a redelivery moves them into webhook_attempts. Nullable columns without a default: no table rewrite.
ALTER TABLE "webhook_deliveries" ADD COLUMN IF NOT EXISTS "success_attempted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN IF NOT EXISTS "success_status_code" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN IF NOT EXISTS "success_duration_ms" integer;
