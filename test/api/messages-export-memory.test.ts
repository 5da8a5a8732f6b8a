// GET /messages/export of 200,000 messages over real HTTP: every row arrives, and the process (server and reader
// both) grows by far less than the file, so the export never holds the whole result.
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createAccount } from '../support/factories.ts';

const ROWS = 200_000;
const MB = 1024 * 1024;

// A full collection on demand, so that what is measured is what the process holds, not garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let t: TestApp;
let baseUrl: string;
// A database of its own: 200,000 rows are this file's alone, dropped with it.
beforeAll(async () => {
  t = await createTestApp({}, { ownDatabase: true });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => { await t.close(); });

it('streams 200,000 rows with the memory of a few batches', async () => {
  const a = await createAccount(t.app);
  // About 270 bytes of CSV a row: the file (about 55 MB) is several times the bounds below; the rows as objects, many more.
  await t.services.db.execute(sql`
    insert into messages (id, account_id, recipient, country, sender, body, parts, credits, status, created_at)
    select gen_random_uuid(), ${a.accountId}, '+614' || lpad(g::text, 8, '0'), 'AU', 'Bulk',
           'Export row ' || g || ', ' || repeat('x', 150), 1, 1, 'delivered', now() - g * interval '1 second'
    from generate_series(1, ${ROWS}) g`);
  // As autovacuum would after such an insert: the plans are those of a table this size.
  await t.services.db.execute(sql`analyze messages`);

  gc();
  const before = process.memoryUsage();
  let peak = { rss: 0, heapUsed: 0 };
  const measure = () => {
    gc();
    const now = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, now.rss - before.rss), heapUsed: Math.max(peak.heapUsed, now.heapUsed - before.heapUsed) };
  };
  let lines = 0;
  let bytes = 0;
  let measuredAt = 0;
  const res = await fetch(`${baseUrl}/messages/export`, { headers: bearer(a.apiKey) });
  expect(res.status).toBe(200);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
    // Every 2 MB of the file: what the server and this reader hold at that moment.
    if (bytes - measuredAt > 2 * MB) { measuredAt = bytes; measure(); }
  }
  expect(lines).toBe(ROWS + 1);
  expect(bytes).toBeGreaterThan(50 * MB);
  const growth = JSON.stringify({ rss_mb: peak.rss / MB, heap_mb: peak.heapUsed / MB });
  expect(peak.heapUsed / MB, growth).toBeLessThan(16);
  expect(peak.rss / MB, growth).toBeLessThan(64);
  // Streamed: a few MB of each. Built in memory first, the same file grew the heap by over 50 MB and RSS by over 150.
}, 180_000);
