-- Contacts and lists (modules/contacts). Opt-outs stay in "optouts": a contact's opted_out is read from there.
CREATE TABLE "contacts" (
  "id" uuid PRIMARY KEY NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id"),
  "phone" text NOT NULL,
  "first_name" text,
  "last_name" text,
  "email" text,
  "fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_phone_idx" ON "contacts" USING btree ("account_id", "phone");--> statement-breakpoint
CREATE INDEX "contacts_account_idx" ON "contacts" USING btree ("account_id", "id");--> statement-breakpoint
CREATE TABLE "contact_lists" (
  "id" uuid PRIMARY KEY NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id"),
  "name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "contact_lists_account_idx" ON "contact_lists" USING btree ("account_id", "id");--> statement-breakpoint
CREATE TABLE "contact_list_members" (
  "list_id" uuid NOT NULL REFERENCES "contact_lists"("id") ON DELETE CASCADE,
  "contact_id" uuid NOT NULL REFERENCES "contacts"("id") ON DELETE CASCADE,
  "added_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("list_id", "contact_id")
);--> statement-breakpoint
CREATE INDEX "contact_list_members_contact_idx" ON "contact_list_members" USING btree ("contact_id");
