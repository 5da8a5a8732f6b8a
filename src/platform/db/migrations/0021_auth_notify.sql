-- API processes cache key look-ups for a few seconds (modules/keys/authenticator.ts). Any
-- change to what a key's actor carries (the key's revocation or scopes; the account's or its parent's status,
-- settings and the other columns the look-up selects) notifies every process, which forgets its cached actors.
-- Statement-level and column-listed: a send's debit (credits, daily_count) never fires it.
CREATE FUNCTION "tasman_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tasman_auth', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "api_keys_auth_changed" AFTER UPDATE OF "revoked_at", "scopes", "hash", "account_id" OR DELETE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasman_auth_changed"();--> statement-breakpoint
CREATE TRIGGER "accounts_auth_changed" AFTER UPDATE OF "parent_id", "business_name", "abn", "account_status",
  "hierarchy_enabled", "daily_limit", "managed_by_parent", "optout_exempt", "inherit_parent_senders", "settings"
  OR DELETE ON "accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasman_auth_changed"();
