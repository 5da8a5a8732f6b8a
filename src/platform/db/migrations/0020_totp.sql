-- An optional TOTP second factor per dashboard user. The secret is sealed (AES-256-GCM under the
-- service key, like webhook signing secrets); totp_enabled_at is null while an enrolment waits for its first
-- code; totp_last_step is the last accepted time step, so a code is refused once used (replay).
ALTER TABLE "account_users" ADD COLUMN "totp_secret_sealed" bytea;--> statement-breakpoint
ALTER TABLE "account_users" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_users" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
-- One-time recovery codes, stored as SHA-256 (they are random, 50 bits each: no slow hash needed).
CREATE TABLE "user_recovery_codes" (
  "user_id" uuid NOT NULL REFERENCES "account_users"("id"),
  "code_hash" text NOT NULL,
  "used_at" timestamp with time zone,
  PRIMARY KEY ("user_id", "code_hash")
);--> statement-breakpoint
-- A password accepted for a user with a second factor: the browser holds the token (only its hash is here)
-- until it sends a code. Expired rows are deleted as new ones are written.
CREATE TABLE "login_challenges" (
  "token_hash" text PRIMARY KEY,
  "user_id" uuid NOT NULL REFERENCES "account_users"("id"),
  "email" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "login_challenges_expires_idx" ON "login_challenges" ("expires_at");
