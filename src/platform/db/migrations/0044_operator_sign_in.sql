-- Operators sign in to the console with their name, a password and a TOTP code. A setup link (its token stored as
-- a hash) lets an operator choose the password and enrol the authenticator; the console opens only once both are
-- set. An operator's console session names them (sessions.operator_id), so their actions are audited under their
-- name, and it ends when they are removed.
ALTER TABLE "operators" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_secret_sealed" bytea;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "setup_token_hash" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "setup_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "operators_setup_token_idx" ON "operators" USING btree ("setup_token_hash") WHERE "setup_token_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "operator_id" uuid REFERENCES "operators"("id");
