-- Dashboard sign-in: account users get a password (Argon2id) set through an invite link, browser
-- sessions are rows (so removal and sign-out take effect on the next request), and failed sign-ins are counted
-- per email for the lockout.
ALTER TABLE "account_users" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "account_users" ADD COLUMN "invite_hash" text;--> statement-breakpoint
ALTER TABLE "account_users" ADD COLUMN "invite_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "account_users_invite_idx" ON "account_users" USING btree ("invite_hash") WHERE "account_users"."invite_hash" is not null;--> statement-breakpoint
CREATE INDEX "account_users_login_idx" ON "account_users" USING btree (lower("email")) WHERE "account_users"."removed_at" is null;--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"operator_token_hash" text,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_user_fk" FOREIGN KEY ("user_id") REFERENCES "account_users"("id"),
	CONSTRAINT "sessions_kind_check" CHECK ("sessions"."kind" in ('user', 'operator'))
);--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "login_failures" (
	"email" text NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "login_failures_email_idx" ON "login_failures" USING btree ("email", "failed_at");--> statement-breakpoint
CREATE TABLE "login_locks" (
	"email" text PRIMARY KEY NOT NULL,
	"locked_until" timestamp with time zone NOT NULL
);
