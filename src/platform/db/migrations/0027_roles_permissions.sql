-- Roles and one set of permissions (decision 0065, docs/permissions.md). Each account's earliest active user
-- becomes its owner; every other user stays a member with the flags they had.
ALTER TABLE "account_users" ADD COLUMN "role" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_users" ADD CONSTRAINT "account_users_role_check" CHECK ("role" in ('owner', 'admin', 'member'));--> statement-breakpoint
UPDATE "account_users" u SET "role" = 'owner', "can_send" = true, "can_billing" = true
FROM (
  SELECT DISTINCT ON ("account_id") "id" FROM "account_users" WHERE "removed_at" IS NULL ORDER BY "account_id", "created_at", "id"
) first WHERE u."id" = first."id";--> statement-breakpoint
-- At most one active owner per account; the service keeps exactly one for every account that has users.
CREATE UNIQUE INDEX "account_users_owner_idx" ON "account_users" ("account_id") WHERE "role" = 'owner' AND "removed_at" IS NULL;--> statement-breakpoint
-- The key scope `billing` beside read, send and manage. A key that held `manage` could move credits and buy
-- numbers, which now needs `billing`: it keeps that power.
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_scopes_check";--> statement-breakpoint
UPDATE "api_keys" SET "scopes" = array(
  SELECT s FROM unnest(array['read', 'send', 'billing', 'manage']) s WHERE s = ANY("scopes") OR (s = 'billing' AND 'manage' = ANY("scopes"))
);--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "scopes" SET DEFAULT '{read,send,billing,manage}'::text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_check" CHECK ("scopes" <@ '{read,send,billing,manage}'::text[] AND cardinality("scopes") > 0);--> statement-breakpoint
-- The user a key belongs to: it carries at most their permissions, and is cut down or revoked with them.
ALTER TABLE "api_keys" ADD COLUMN "created_by_user" uuid REFERENCES "account_users"("id");--> statement-breakpoint
CREATE INDEX "api_keys_created_by_user_idx" ON "api_keys" ("created_by_user") WHERE "created_by_user" IS NOT NULL AND "revoked_at" IS NULL;--> statement-breakpoint
-- Who removed an opt-out by hand (a re-subscription a business must account for): a user, a key, or the operator.
ALTER TABLE "optout_events" ADD COLUMN "actor_user_id" uuid;--> statement-breakpoint
ALTER TABLE "optout_events" ADD COLUMN "actor_key_id" uuid;
