import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/client.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';

// Two "processes" on a database of their own: one listens on the three channels a workers process listens on,
// whose names together once overflowed application_name (so it counted as listening on every channel); the
// other must see exactly those three.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let workers: Database;
let api: Database;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  const open = () => openDatabase({ databaseUrl: scratch.url, dataDir: '', poolSize: 2 });
  [workers, api] = await Promise.all([open(), open()]);
  for (const channel of ['tasman_auth', 'tasman_messages_queued', 'tasman_webhooks']) await workers.listen(channel, () => {});
});
afterAll(async () => {
  await Promise.all([workers.close(), api.close()]);
  await scratch.drop();
});

describe('othersListen with a process on three channels', () => {
  it('is true for each of its channels and false for any other', async () => {
    for (const channel of ['tasman_auth', 'tasman_messages_queued', 'tasman_webhooks']) expect(await api.othersListen(channel)).toBe(true);
    expect(await api.othersListen('tasman_nobody')).toBe(false);
    expect(await api.othersListen('webhooks_other')).toBe(false);
    // a process does not count its own LISTEN connection
    expect(await workers.othersListen('tasman_webhooks')).toBe(false);
  });
});
