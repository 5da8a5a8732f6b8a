-- Messages and webhook_deliveries are both a large history and a work queue. Each message
-- leaves dead entries in the dispatcher's queue index (its accepted and its claimed version) and each delivery in
-- the webhook due index; those entries sort before every live one, and only VACUUM removes their pages, so every
-- claim walks all the entries left since the last VACUUM (measured: 6–8 index pages more per 1,000 messages,
-- 1.2 ms more per claim after 25,000 messages; decision 0039). With the default thresholds
-- autovacuum waits for dead rows worth 20% of the table, which on a large table is hundreds of thousands of
-- messages between vacuums. These settings vacuum them after about 2% (and always clean the indexes, which
-- PostgreSQL otherwise may skip when few pages hold dead rows: the queue index is the one that needs it).
ALTER TABLE "messages" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 5000, vacuum_index_cleanup = on);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 5000, vacuum_index_cleanup = on);
