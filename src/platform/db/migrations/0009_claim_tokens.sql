-- One fencing token for every queue (docs/decisions/0011-claim-tokens-and-short-leases.md): each claim writes a
-- fresh token, and every completion, retry and lease renewal applies only while the row still holds it. Nullable,
-- no default: adding the columns rewrites nothing.
ALTER TABLE "messages" ADD COLUMN "claim_token" uuid;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claim_token" uuid;
