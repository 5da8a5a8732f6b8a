-- IF NOT EXISTS: on a large existing database, build these first with CREATE INDEX CONCURRENTLY.
CREATE INDEX IF NOT EXISTS "credit_ledger_report_idx" ON "credit_ledger" USING btree ("account_id","created_at","kind","delta");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_report_idx" ON "messages" USING btree ("account_id","created_at","status","parts","sent_at");
