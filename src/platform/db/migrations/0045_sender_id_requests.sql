-- An account's requests for an alphanumeric Sender ID (modules/senders): the operator approves one (which registers
-- it in "sender_ids" to the account, as POST /admin/sender-ids does) or rejects it with a reason.
CREATE TABLE "sender_id_requests" (
  "id" uuid PRIMARY KEY NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id"),
  "sender_id" text NOT NULL,
  "abn" text NOT NULL,
  "use_description" text NOT NULL,
  "status" text DEFAULT 'requested' NOT NULL,
  "reason" text,
  "registration_id" uuid,
  "reviewed_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sender_id_requests_status_check" CHECK ("status" IN ('requested', 'approved', 'rejected'))
);--> statement-breakpoint
CREATE INDEX "sender_id_requests_account_idx" ON "sender_id_requests" USING btree ("account_id", "created_at");--> statement-breakpoint
-- The operator's queue, and one open request per account and Sender ID (any case).
CREATE INDEX "sender_id_requests_status_idx" ON "sender_id_requests" USING btree ("status", "created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_id_requests_open_idx" ON "sender_id_requests" USING btree ("account_id", lower("sender_id")) WHERE "status" = 'requested';
