-- Credentials for customers' own SMPP clients binding to Tasman's SMPP server (docs/smpp-server.md). Revocation
-- notifies every process (channel tasman_smpp_revoked, payload the credential's id), which closes its binds.
CREATE TABLE "smpp_credentials" (
  "id" uuid PRIMARY KEY NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id"),
  "name" text NOT NULL,
  "system_id" text NOT NULL,
  "password_hash" text NOT NULL,
  "allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
  "max_binds" integer NOT NULL,
  "tps" integer NOT NULL,
  "created_by_user" uuid REFERENCES "account_users"("id"),
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "revoked_at" timestamp with time zone,
  "last_bound_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "smpp_credentials_system_id_idx" ON "smpp_credentials" USING btree ("system_id");--> statement-breakpoint
CREATE INDEX "smpp_credentials_account_idx" ON "smpp_credentials" USING btree ("account_id", "created_at");
