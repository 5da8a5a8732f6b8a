-- Fingerprints of the MO messages stored in the last INBOUND_DEDUP_SECONDS: an SMSC resends an MO whose
-- deliver_sm_resp it did not get, and SMPP 3.4 gives the MO no id to recognise it by (docs/decisions/0068, MO
-- deduplication). Purged past the window by the fragment purge.
CREATE TABLE "inbound_seen" (
  "fingerprint" text PRIMARY KEY NOT NULL,
  "received_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "inbound_seen_received_at_idx" ON "inbound_seen" USING btree ("received_at");
