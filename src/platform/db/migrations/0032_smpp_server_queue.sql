-- Tasman's SMPP server (docs/smpp-server.md). smpp_submits: the messages an ESME submitted asking for a receipt,
-- with the addresses the receipt goes back between; taken (deleted) by the transaction that gives the message
-- its outcome, which queues the receipt. smpp_deliveries: the durable queue of deliver_sm (receipts and inbound
-- messages) per credential, claimed by whichever instance holds a receiving bind of it, in id order, each deleted
-- once the ESME answered deliver_sm_resp; a row older than SMPP_SERVER_QUEUE_HOURS is dropped. smpp_binds: the
-- binds on every instance (max_binds counts the live rows of a credential, seen within 30 s; each instance renews
-- its own every 10 s, so a crashed instance's lapse). smpp_rates: each credential's submits in the current second.
CREATE TABLE "smpp_submits" (
  "message_id" uuid PRIMARY KEY NOT NULL,
  "credential_id" uuid NOT NULL REFERENCES "smpp_credentials"("id"),
  "account_id" uuid NOT NULL,
  "source" jsonb NOT NULL,
  "destination" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "smpp_submits_created_at_idx" ON "smpp_submits" USING btree ("created_at");--> statement-breakpoint
CREATE TABLE "smpp_deliveries" (
  "id" uuid PRIMARY KEY NOT NULL,
  "credential_id" uuid NOT NULL REFERENCES "smpp_credentials"("id"),
  "account_id" uuid NOT NULL,
  "kind" text NOT NULL,
  "message_id" uuid,
  "body" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "claim_token" uuid,
  "claimed_until" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "smpp_deliveries_queue_idx" ON "smpp_deliveries" USING btree ("credential_id", "id");--> statement-breakpoint
CREATE INDEX "smpp_deliveries_created_at_idx" ON "smpp_deliveries" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "smpp_binds" (
  "id" uuid PRIMARY KEY NOT NULL,
  "credential_id" uuid NOT NULL REFERENCES "smpp_credentials"("id"),
  "account_id" uuid NOT NULL,
  "system_id" text NOT NULL,
  "mode" text NOT NULL,
  "address" text NOT NULL,
  "bound_at" timestamp with time zone DEFAULT now() NOT NULL,
  "seen_at" timestamp with time zone DEFAULT now() NOT NULL,
  "pdus_in" bigint DEFAULT 0 NOT NULL,
  "pdus_out" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE INDEX "smpp_binds_credential_idx" ON "smpp_binds" USING btree ("credential_id");--> statement-breakpoint
CREATE TABLE "smpp_rates" (
  "credential_id" uuid PRIMARY KEY NOT NULL REFERENCES "smpp_credentials"("id"),
  "second" bigint NOT NULL,
  "count" integer NOT NULL
);
