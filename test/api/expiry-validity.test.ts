// Expiry follows the validity period each message's submit carried: a carrier's own `validity_hours`
// (TASMAN_CARRIERS), else MESSAGE_VALIDITY_HOURS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertMessages } from '../support/raw-messages.ts';
import { rows } from '../../src/platform/db/client.ts';
import { createReceiptService } from '../../src/modules/receipts/receipts.service.ts';
import { noLinks } from '../../src/common/link-view.ts';

let t: TestApp;
// Its own database: expiry with a clock days ahead would end every other file's sent messages.
beforeAll(async () => { t = await createTestApp({}, { ownDatabase: true }); });
afterAll(async () => { await t.close(); });

describe('expiry by carrier validity', () => {
  it('ends a carrier\'s messages after its own validity_hours, and the others after MESSAGE_VALIDITY_HOURS', async () => {
    const db = t.services.db;
    const [short, other, none] = [await insertMessages(db, { status: 'sent', count: 2 }), await insertMessages(db, { status: 'sent', count: 2 }), await insertMessages(db, { status: 'sent', count: 2 })];
    await db.execute(sql`update messages set smsc_carrier = 'short' where id = any(${`{${short!.join(',')}}`}::uuid[])`);
    await db.execute(sql`update messages set smsc_carrier = 'other' where id = any(${`{${other!.join(',')}}`}::uuid[])`);
    const receipts = createReceiptService({ db, linksOf: noLinks, validityHours: 48, carrierValidityHours: { short: 2, long: 72 } });
    const statusOf = async () => Object.fromEntries((await rows<{ id: string; status: string }>(db, sql`select id, status from messages`)).map((r) => [r.id, r.status]));
    const hour = 3_600_000;

    // Sent an hour ago: the short carrier's 2 hours and its hour of grace are not over at +1.9 h, over at +2.1 h.
    expect(await receipts.expireOverdue(new Date(Date.now() + 1.9 * hour))).toBe(0);
    expect(await receipts.expireOverdue(new Date(Date.now() + 2.1 * hour))).toBe(2);
    let status = await statusOf();
    for (const id of short!) expect(status[id]).toBe('failed');
    for (const id of [...other!, ...none!]) expect(status[id]).toBe('sent');

    // The rest by MESSAGE_VALIDITY_HOURS (48), whatever carrier sent them, including none recorded.
    expect(await receipts.expireOverdue(new Date(Date.now() + 47.9 * hour))).toBe(0);
    expect(await receipts.expireOverdue(new Date(Date.now() + 48.1 * hour))).toBe(4);
    status = await statusOf();
    for (const id of [...other!, ...none!]) expect(status[id]).toBe('failed');
  });
});
