-- Failed sign-ins, operator-token, invite and reset-token attempts, counted per key (a source address, an email,
-- a device cookie) when REDIS_URL is not set (platform/http/failure-counter.ts). One row per key, upserted: the
-- per-address minute and the per-email growing delay both read one row. It replaces the per-email lockout tables.
CREATE TABLE "auth_failures" (
  "key" text PRIMARY KEY NOT NULL,
  "window_start" timestamp with time zone NOT NULL,
  "failures" integer NOT NULL,
  "last_failed_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "auth_failures_last_idx" ON "auth_failures" ("last_failed_at");--> statement-breakpoint
DROP TABLE "login_failures";--> statement-breakpoint
DROP TABLE "login_locks";
