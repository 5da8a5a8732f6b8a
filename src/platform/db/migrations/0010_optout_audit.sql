ALTER TABLE "inbound_messages" ADD COLUMN "is_optin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "optouts" ADD COLUMN "inbound_message_id" uuid;--> statement-breakpoint
ALTER TABLE "optouts" ADD COLUMN "message_id" uuid;--> statement-breakpoint
CREATE TABLE "optout_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"action" text NOT NULL,
	"source" text NOT NULL,
	"raw_text" text,
	"inbound_message_id" uuid,
	"message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "optout_events" ADD CONSTRAINT "optout_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "optout_events_account_idx" ON "optout_events" USING btree ("account_id","created_at");--> statement-breakpoint
-- Opt-outs recorded before the audit existed enter it with what is known of them.
INSERT INTO "optout_events" ("id", "account_id", "number", "action", "source", "created_at")
SELECT gen_random_uuid(), "account_id", "number", 'optout', "source", "created_at" FROM "optouts";
