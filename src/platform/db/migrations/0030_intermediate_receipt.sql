-- The latest non-final receipt of a message (ENROUTE, or an intermediate notification), shown beside its final
-- delivery receipt. Nullable without a default: adding it rewrites no row.
ALTER TABLE "messages" ADD COLUMN "intermediate_receipt" jsonb;
