-- The low-balance notice (settings.low_balance_threshold; decision 0075). A debit that takes an account's balance
-- from at-or-above its threshold to below it leaves a row here in the debit's own transaction, whichever
-- statement made it (a send, a batch, a credit move); a job on the worker loop turns each row into one email.
-- The trigger's WHEN is evaluated on the updated row in memory: a debit of an account without a threshold, or
-- one that stays above it, runs no function and writes nothing.
CREATE TABLE "low_balance_notices" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id"),
  "balance" integer NOT NULL,
  "threshold" integer NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE FUNCTION "low_balance_crossed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "low_balance_notices" ("account_id", "balance", "threshold")
  VALUES (NEW."id", NEW."credits", (NEW."settings"->>'low_balance_threshold')::numeric);
  RETURN NULL;
END $$;--> statement-breakpoint
-- CASE, not AND: the threshold is read only when it is a JSON number (a hand-edited value never fails a debit).
CREATE TRIGGER "accounts_low_balance" AFTER UPDATE OF "credits" ON "accounts" FOR EACH ROW
WHEN (NEW."credits" < OLD."credits" AND CASE WHEN jsonb_typeof(NEW."settings"->'low_balance_threshold') = 'number'
  THEN OLD."credits" >= (NEW."settings"->>'low_balance_threshold')::numeric AND NEW."credits" < (NEW."settings"->>'low_balance_threshold')::numeric
  ELSE false END)
EXECUTE FUNCTION "low_balance_crossed"();
