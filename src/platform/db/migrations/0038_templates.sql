-- Saved message texts (modules/templates): /send and /send-batch take template_id instead of message.
CREATE TABLE "templates" (
  "id" uuid PRIMARY KEY NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id"),
  "name" text NOT NULL,
  "body" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "templates_account_idx" ON "templates" USING btree ("account_id", "id");
