// Carriers reloaded live across instances: two `tasman start` processes on one database (one serving the API with
// its own workers, one running the workers alone), each with its own TASMAN_CARRIERS, bound over real SMPP to npm
// SMSC processes. One operator call re-reads the file in both: the new carrier binds from each, the unchanged one
// keeps its binds, messages follow the new routes, and a broken file changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { httpJson as http, startProcess, type TasmanProcess } from '../support/process.ts';
import { npmSmscProcess, type SmscProcess } from '../support/smsc-process.ts';
import { pollUntil } from '../support/poll.ts';
import { mobile } from '../support/factories.ts';

const TOKEN = 'carriers-reload-operator';
const cleanups: Array<() => Promise<unknown> | unknown> = [];
const register = (c: () => Promise<unknown>) => { cleanups.push(c); };
const dir = mkdtempSync(path.join(tmpdir(), 'tasman-carriers-reload-'));
const fileOf = (name: string) => path.join(dir, `${name}.json`);

const carrier = (id: string, port: number) => ({ id, host: '127.0.0.1', port, system_id: 'tasman', password_env: 'CARRIER_PW', window: 10, tps: 500 });
/** The same configuration in both instances' files (each reads its own). */
const writeBoth = (doc: object | string) => {
  for (const name of ['a', 'b']) writeFileSync(fileOf(name), typeof doc === 'string' ? doc : JSON.stringify(doc));
};


const binds = (smsc: SmscProcess) => smsc.lines.filter((l) => l.startsWith('BOUND ')).length;
const submits = (smsc: SmscProcess) => smsc.lines.filter((l) => l.startsWith('SUBMIT ')).map((l) => `+${l.split(' ')[1]}`);

let one: SmscProcess;
let two: SmscProcess;
let a: TasmanProcess;
let b: TasmanProcess;

beforeAll(async () => {
  const db = await createScratchDatabase('tasman_carriers_reload');
  register(() => db.drop());
  [one, two] = await Promise.all([npmSmscProcess(register), npmSmscProcess(register)]);
  writeBoth({ carriers: [carrier('one', one.port)], routes: [{ carriers: ['one'] }] });
  const env = { DATABASE_URL: db.url, TASMAN_ADMIN_TOKEN: TOKEN, TASMAN_SECRET_KEY: 'ef'.repeat(32), CARRIER_PW: 'pw' };
  a = await startProcess({ ...env, TASMAN_CARRIERS: fileOf('a'), DATA_DIR: path.join(dir, 'a') }, { startTimeoutMs: 180_000 });
  register(() => a.stop());
  b = await startProcess({ ...env, TASMAN_CARRIERS: fileOf('b'), DATA_DIR: path.join(dir, 'b'), TASMAN_ROLES: 'workers' }, { startTimeoutMs: 180_000 });
  register(() => b.stop());
  await pollUntil(async () => binds(one), (n) => n === 2, 'a bind to carrier one from each instance', 90_000, 100);
}, 300_000);

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /admin/carriers/reload', () => {
  it('binds a new carrier in every instance, keeps the unchanged binds, and routes new messages to it', { timeout: 240_000 }, async () => {
    writeBoth({ carriers: [carrier('one', one.port), carrier('two', two.port)], routes: [{ carriers: ['two'] }] });
    const reloaded = await http('POST', `${a.url}/admin/carriers/reload`, TOKEN);
    expect(reloaded).toEqual({
      status: 200,
      body: { here: { added: ['two'], changed: [], removed: [], unchanged: ['one'], routes: [{ carriers: ['two'] }] }, others_notified: true },
    });
    // The workers-only instance heard it through the database and did the same with its own file.
    const heard = await pollUntil(async () => b.logs.find((l) => l.includes('carriers reloaded (announced by another instance)')), Boolean, 'the other instance reloading', 60_000, 100);
    expect(JSON.parse(heard!)).toMatchObject({ added: ['two'], unchanged: ['one'], removed: [], changed: [] });
    await pollUntil(async () => binds(two), (n) => n === 2, 'a bind to carrier two from each instance', 90_000, 100);
    expect(binds(one)).toBe(2);

    // New messages go to the new carrier, whichever instance's dispatcher takes them, and are delivered.
    const created = await http('POST', `${a.url}/admin/accounts`, TOKEN, { business_name: 'Reload Pty Ltd', email: `reload-${Date.now()}@example.com`, credits: 20 });
    const key = created.body.api_key as string;
    const recipients = Array.from({ length: 8 }, () => mobile());
    const sent = await http('POST', `${a.url}/send-batch`, key, { recipients, message: 'after the reload' });
    expect(sent.status).toBe(200);
    await pollUntil(async () => submits(two), (s) => recipients.every((r) => s.includes(r)), 'every message submitted to carrier two', 90_000, 100);
    expect(submits(one).filter((r) => recipients.includes(r))).toEqual([]);

    // A file that does not hold: 409 naming it, and the carriers in force stay.
    writeBoth({ carriers: [carrier('one', one.port)], routes: [{ carriers: ['three'] }] });
    const refused = await http('POST', `${a.url}/admin/carriers/reload`, TOKEN);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/three.*the carriers in force are unchanged$/);
    const view = await http('GET', `${a.url}/admin/carriers`, TOKEN);
    expect((view.body.carriers as Array<{ id: string }>).map((c) => c.id)).toEqual(['one', 'two']);

    // Removing a carrier drains it in both instances; the other keeps its binds.
    writeBoth({ carriers: [carrier('two', two.port)], routes: [{ carriers: ['two'] }] });
    const removed = await http('POST', `${a.url}/admin/carriers/reload`, TOKEN);
    expect(removed.body.here).toMatchObject({ added: [], changed: [], removed: ['one'], unchanged: ['two'] });
    await pollUntil(async () => b.logs.filter((l) => l.includes('"removed":["one"]')), (l) => l.length === 1, 'the other instance draining carrier one', 60_000, 100);
    expect(binds(two)).toBe(2);
    const after = await http('GET', `${a.url}/admin/carriers`, TOKEN);
    expect((after.body.carriers as Array<{ id: string; state: string }>).map((c) => [c.id, c.state])).toEqual([['two', 'bound']]);
  });
});
