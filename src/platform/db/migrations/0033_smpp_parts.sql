-- A message that is one part of a customer's own long message (submitted over the SMPP server with a UDH or the
-- sar_* TLVs): its concatenation fields, written with the message and read by the dispatcher's claim, which sends
-- the part as one segment with those fields unchanged so the handset joins the parts.
CREATE TABLE "smpp_parts" (
  "message_id" uuid PRIMARY KEY NOT NULL,
  "form" text NOT NULL,
  "ref" integer NOT NULL,
  "total" integer NOT NULL,
  "seq" integer NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "smpp_parts_created_at_idx" ON "smpp_parts" USING btree ("created_at");
