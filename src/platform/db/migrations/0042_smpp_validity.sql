-- The validity period a customer's submit_sm carried (SMPP server): written with the message, read when it is
-- submitted to the carrier (which is given what remains of it) and by the SMPP server's expiry sweep, which ends
-- the message `expired` once it has passed (unsent: at once and refunded; sent: after the receipt's grace).
-- A row leaves once its message is final and its time has passed.
CREATE TABLE "smpp_validity" (
  "message_id" uuid PRIMARY KEY NOT NULL,
  "valid_until" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "smpp_validity_valid_until_idx" ON "smpp_validity" USING btree ("valid_until");
