// The workers' statements that run prepared (parsed and planned once per connection) keep working on that
// connection when a newer build's migration adds a column to their table, as in a rolling upgrade: a prepared
// statement whose result columns would change fails on every call until its connection closes. A scratch
// database, as the test alters a table; one connection, so the second call reuses the first one's statement.
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { applyFinalBatch } from '../../src/modules/receipts/receipts.repo.ts';
import { insertMessages } from '../support/raw-messages.ts';
import { scratchDatabaseForFile } from '../support/scratch-db.ts';

const opened = scratchDatabaseForFile();

/** One sent message whose SMSC id is `${prefix}-0`. */
const sentMessage = async (prefix: string) => (await insertMessages(opened().db, { status: 'sent', count: 1, smscPrefix: prefix }))[0]!;

const deliver = (smscId: string) => opened().db.transaction((tx) => applyFinalBatch(tx, [{
  carrier: 'default', smscId, state: 'delivered', status: 'delivered', errorCode: null, receivedAt: new Date(),
}]));

it('receipt batches still apply after a migration adds a column to messages', async () => {
  const first = await sentMessage('prep-1');
  expect((await deliver('prep-1-0')).updated.map((r) => r.id)).toEqual([first]);
  await opened().db.execute(sql`alter table messages add column added_by_a_newer_build int`);
  const second = await sentMessage('prep-2');
  const result = await deliver('prep-2-0');
  expect(result.updated.map((r) => [r.id, r.status])).toEqual([[second, 'delivered']]);
});
