-- Short links with click tracking: one row per URL per message, written by the send statement.
CREATE TABLE "message_links" (
	"code" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"url" text,
	"clicks" integer DEFAULT 0 NOT NULL,
	"first_clicked_at" timestamp with time zone,
	"last_clicked_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "message_links_message_idx" ON "message_links" USING btree ("account_id","message_id","position");--> statement-breakpoint
-- Opt-in event types per endpoint; null is the endpoint's own event only (message.dlr or message.inbound).
ALTER TABLE "webhook_endpoints" ADD COLUMN "events" text[];
