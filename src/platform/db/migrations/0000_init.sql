CREATE TABLE "account_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"can_send" boolean DEFAULT true NOT NULL,
	"can_billing" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"source" text DEFAULT 'direct' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"parent_id" uuid,
	"business_name" text NOT NULL,
	"email" text,
	"abn" text,
	"credits" integer DEFAULT 0 NOT NULL,
	"account_status" text DEFAULT 'active' NOT NULL,
	"hierarchy_enabled" boolean DEFAULT false NOT NULL,
	"daily_limit" integer,
	"daily_day" date,
	"daily_count" integer DEFAULT 0 NOT NULL,
	"managed_by_parent" boolean DEFAULT true NOT NULL,
	"team_access_from_parent" boolean DEFAULT false NOT NULL,
	"optout_exempt" boolean DEFAULT false NOT NULL,
	"inherit_parent_senders" boolean DEFAULT false NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "accounts_credits_non_negative" CHECK ("accounts"."credits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"delta" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"message_id" uuid,
	"campaign_id" uuid,
	"counterparty_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text,
	"message_body" text,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"parts_per_message" integer DEFAULT 1 NOT NULL,
	"total_credits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_fragments" (
	"from_number" text NOT NULL,
	"to_number" text NOT NULL,
	"ref" integer NOT NULL,
	"total" smallint NOT NULL,
	"seq" smallint NOT NULL,
	"text" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_fragments_from_number_to_number_ref_seq_pk" PRIMARY KEY("from_number","to_number","ref","seq")
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid,
	"from_number" text NOT NULL,
	"to_number" text NOT NULL,
	"body" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"in_reply_to" uuid,
	"is_optout" boolean DEFAULT false NOT NULL,
	"carrier_ref" text,
	"content_deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"campaign_id" uuid,
	"recipient" text NOT NULL,
	"country" text NOT NULL,
	"sender" text NOT NULL,
	"body" text,
	"parts" integer NOT NULL,
	"credits" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"smsc_message_id" text,
	"error_code" text,
	"dlr_status" text,
	"dlr_received_at" timestamp with time zone,
	"dlr_error_code" text,
	"optout_code" text,
	"content_deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "numbers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"country" text NOT NULL,
	"price_monthly" numeric(10, 2) DEFAULT 0 NOT NULL,
	"account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"assigned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "optouts" (
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "optouts_account_id_number_pk" PRIMARY KEY("account_id","number")
);
--> statement-breakpoint
CREATE TABLE "pending_receipts" (
	"smsc_message_id" text PRIMARY KEY NOT NULL,
	"receipt" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sender_ids" (
	"id" uuid PRIMARY KEY NOT NULL,
	"sender_id" text NOT NULL,
	"abn" text NOT NULL,
	"account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"event" text NOT NULL,
	"message_id" uuid,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret_sealed" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_account_id_kind_pk" PRIMARY KEY("account_id","kind")
);
--> statement-breakpoint
ALTER TABLE "account_users" ADD CONSTRAINT "account_users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optouts" ADD CONSTRAINT "optouts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_users_email_idx" ON "account_users" USING btree ("account_id",lower("email")) WHERE "account_users"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "accounts_parent_idx" ON "accounts" USING btree ("parent_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_ledger_account_idx" ON "credit_ledger" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_ledger_message_idx" ON "credit_ledger" USING btree ("message_id") WHERE "credit_ledger"."message_id" is not null;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_name_idx" ON "campaigns" USING btree ("account_id","name") WHERE "campaigns"."name" is not null;--> statement-breakpoint
CREATE INDEX "campaigns_account_idx" ON "campaigns" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "inbound_account_received_idx" ON "inbound_messages" USING btree ("account_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_carrier_ref_idx" ON "inbound_messages" USING btree ("carrier_ref") WHERE "inbound_messages"."carrier_ref" is not null;--> statement-breakpoint
CREATE INDEX "inbound_retention_idx" ON "inbound_messages" USING btree ("received_at") WHERE "inbound_messages"."body" is not null;--> statement-breakpoint
CREATE INDEX "messages_account_created_idx" ON "messages" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_campaign_idx" ON "messages" USING btree ("campaign_id","id") WHERE "messages"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_queue_idx" ON "messages" USING btree ("next_attempt_at") WHERE "messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "messages_smsc_id_idx" ON "messages" USING btree ("smsc_message_id") WHERE "messages"."smsc_message_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("recipient","sender","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_optout_code_idx" ON "messages" USING btree ("optout_code") WHERE "messages"."optout_code" is not null;--> statement-breakpoint
CREATE INDEX "messages_retention_idx" ON "messages" USING btree ("created_at") WHERE "messages"."body" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "numbers_number_idx" ON "numbers" USING btree ("number");--> statement-breakpoint
CREATE INDEX "numbers_account_idx" ON "numbers" USING btree ("account_id","number");--> statement-breakpoint
CREATE INDEX "numbers_pool_idx" ON "numbers" USING btree ("country","number") WHERE "numbers"."account_id" is null;--> statement-breakpoint
CREATE INDEX "optouts_created_idx" ON "optouts" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_ids_unique_idx" ON "sender_ids" USING btree (lower("sender_id"),"abn");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_account_idx" ON "webhook_deliveries" USING btree ("account_id","created_at");