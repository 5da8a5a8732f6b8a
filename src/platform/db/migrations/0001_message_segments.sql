CREATE TABLE "message_segments" (
	"smsc_message_id" text PRIMARY KEY NOT NULL,
	"message_id" uuid NOT NULL,
	"seq" smallint NOT NULL,
	"dlr_status" text
);
--> statement-breakpoint
CREATE INDEX "message_segments_message_idx" ON "message_segments" USING btree ("message_id");