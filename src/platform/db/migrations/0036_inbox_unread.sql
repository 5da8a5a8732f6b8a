-- Inbound messages are unread until marked read by an explicit call (never by listing them). Messages received
-- before this migration count as read: the default is evaluated once here and stored as the column's missing value
-- (no table rewrite), then dropped so every new message arrives unread.
ALTER TABLE "inbound_messages" ADD COLUMN "read_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "inbound_messages" ALTER COLUMN "read_at" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "inbound_unread_idx" ON "inbound_messages" USING btree ("account_id","received_at") WHERE "read_at" is null;--> statement-breakpoint
CREATE INDEX "inbound_conversation_idx" ON "inbound_messages" USING btree ("account_id","from_number","received_at");
