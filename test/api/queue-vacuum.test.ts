import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/client.ts';
import { scratchDatabaseForFile } from '../support/scratch-db.ts';

// The two tables that are also work queues are vacuumed long before the default 20% of dead rows (migration 0022):
// every claim walks the dead queue-index entries left since the last VACUUM (decision 0039).
const opened = scratchDatabaseForFile();

describe('autovacuum of the queue tables', () => {
  it('vacuums messages and webhook_deliveries after 2% of dead rows, indexes included', async () => {
    const found = await rows<{ relname: string; reloptions: string[] | null }>(opened().db, sql`
      select relname, reloptions from pg_class where relname in ('messages', 'webhook_deliveries') order by relname`);
    expect(found.map((r) => r.relname)).toEqual(['messages', 'webhook_deliveries']);
    for (const r of found) {
      expect(r.reloptions).toEqual(expect.arrayContaining([
        'autovacuum_vacuum_scale_factor=0.02', 'autovacuum_vacuum_threshold=5000', 'vacuum_index_cleanup=on',
      ]));
    }
  });
});
