-- Several carriers and binds: every submitted message and segment records the bind it went through,
-- and every inbound message the carrier it came from.
ALTER TABLE "messages" ADD COLUMN "smsc_bind" smallint;--> statement-breakpoint
ALTER TABLE "message_segments" ADD COLUMN "bind" smallint;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "carrier" text;
