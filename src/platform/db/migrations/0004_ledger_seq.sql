CREATE SEQUENCE "credit_ledger_seq_seq" AS bigint;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "seq" bigint;--> statement-breakpoint
-- Rows written before the sequence existed: the best order known for them is created_at, then id (UUID v7).
UPDATE "credit_ledger" SET "seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "credit_ledger") o
WHERE "credit_ledger"."id" = o."id";--> statement-breakpoint
SELECT setval('credit_ledger_seq_seq', coalesce((SELECT max("seq") FROM "credit_ledger"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "seq" SET DEFAULT nextval('credit_ledger_seq_seq');--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER SEQUENCE "credit_ledger_seq_seq" OWNED BY "credit_ledger"."seq";
