-- A message's timeline lists the webhook deliveries about it (GET /webhooks/deliveries?message_id=).
-- Without this index that read scans every delivery of the account.
CREATE INDEX "webhook_deliveries_message_idx" ON "webhook_deliveries" ("account_id", "message_id") WHERE "message_id" IS NOT NULL;
