-- The audit log (docs/audit-log.md): one row per change that matters for security or money, written in the same
-- transaction as the change, and one per refused attempt. Append-only: no route changes or deletes a row, the
-- trigger below refuses every UPDATE, and only the retention pass deletes rows past AUDIT_RETENTION_DAYS.
-- No foreign key to accounts: an entry outlives whatever it names.
CREATE TABLE "audit_log" (
  "id" uuid PRIMARY KEY NOT NULL,
  "created_at" timestamptz DEFAULT now() NOT NULL,
  "account_id" uuid,
  "actor_type" text NOT NULL,
  "actor_id" text,
  "actor_label" text,
  "source_address" text,
  "action" text NOT NULL,
  "target_type" text,
  "target_id" text,
  "outcome" text NOT NULL,
  "reason" text,
  "before" jsonb,
  "after" jsonb,
  CONSTRAINT "audit_log_actor_type_check" CHECK ("actor_type" in ('user', 'key', 'operator', 'system', 'anonymous')),
  CONSTRAINT "audit_log_outcome_check" CHECK ("outcome" in ('ok', 'refused'))
);--> statement-breakpoint
CREATE INDEX "audit_log_account_idx" ON "audit_log" ("account_id", "created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" ("created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE FUNCTION "tasman_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log entries cannot be changed';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "tasman_audit_append_only"();
