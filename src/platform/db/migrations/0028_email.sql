-- Mail Tasman sends (invitations, password resets, low-balance notices) goes through this outbox, written in the
-- transaction of the change that sends it (platform/mail/mailer.ts). With SMTP_URL a row is sent and its body
-- dropped; without it the operator reads the outbox (GET /admin/outbox).
CREATE TABLE "email_outbox" (
  "id" uuid PRIMARY KEY NOT NULL,
  "account_id" uuid REFERENCES "accounts"("id"),
  "kind" text NOT NULL,
  "to_address" text NOT NULL,
  "subject" text NOT NULL,
  "body" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp with time zone,
  "attempts" integer DEFAULT 0 NOT NULL,
  "last_error" text
);--> statement-breakpoint
CREATE INDEX "email_outbox_waiting_idx" ON "email_outbox" ("id") WHERE "sent_at" IS NULL;--> statement-breakpoint
-- Password reset links: only the token's SHA-256 is kept; one use, an hour.
CREATE TABLE "password_resets" (
  "token_hash" text PRIMARY KEY NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "account_users"("id"),
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" ("user_id");
