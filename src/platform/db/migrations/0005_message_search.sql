ALTER TABLE "messages" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
CREATE INDEX "messages_failed_idx" ON "messages" USING btree ("account_id","created_at") WHERE "messages"."status" = 'failed';
