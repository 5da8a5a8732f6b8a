-- Parts of a multi-part MO are joined as octets, then decoded: a character can straddle two parts.
ALTER TABLE "inbound_fragments" ADD COLUMN "octets_hex" text;--> statement-breakpoint
ALTER TABLE "inbound_fragments" ADD COLUMN "coding" text;
