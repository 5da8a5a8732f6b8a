-- A parked receipt keeps its handset as the handset key (the last eight digits, modules/receipts/handset.ts), the
-- one form every "same handset" comparison uses.
UPDATE "pending_receipts" SET "recipient" = right("recipient", 8) WHERE length("recipient") > 8;
