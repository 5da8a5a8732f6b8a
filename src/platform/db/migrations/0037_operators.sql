-- Named operators: each person running Tasman has a token of their own (only its hash is kept), so the audit log
-- names who did what and one person's access is revoked without changing everyone's. The bootstrap token
-- (TASMAN_ADMIN_TOKEN) stays and creates the first.
CREATE TABLE "operators" (
  "id" uuid PRIMARY KEY NOT NULL,
  "name" text NOT NULL,
  "token_hash" text NOT NULL,
  "token_prefix" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "created_by" text NOT NULL,
  "revoked_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "operators_token_hash_idx" ON "operators" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_live_name_idx" ON "operators" USING btree (lower("name")) WHERE "revoked_at" IS NULL;
