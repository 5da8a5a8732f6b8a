-- An Idempotency-Key claim is a lease renewed while its request runs: a dead process's key is retaken in 15 s.
ALTER TABLE "idempotency_keys" ADD COLUMN "lease_until" timestamp with time zone;
