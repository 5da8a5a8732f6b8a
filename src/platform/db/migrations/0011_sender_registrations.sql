ALTER TABLE "accounts" ADD COLUMN "abn_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Top-level accounts are made, and their ABN set, only through the operator API; a sub-account's ABN was declared
-- by its parent and grants nothing.
UPDATE "accounts" SET "abn_verified" = true WHERE "parent_id" IS NULL AND "abn" IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "sender_ids_unique_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "sender_ids_unique_idx" ON "sender_ids" USING btree (lower("sender_id"), "abn", coalesce("account_id", '00000000-0000-0000-0000-000000000000'::uuid));
