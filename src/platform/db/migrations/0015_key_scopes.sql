-- API key scopes. Existing keys keep every power they had (read, send, manage).
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT '{read,send,manage}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_check" CHECK ("scopes" <@ '{read,send,manage}'::text[] AND cardinality("scopes") > 0);
