import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import smpp, { type Session } from 'smpp';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { ask } from '../support/smpp-esme.ts';
import { rows } from '../../src/platform/db/client.ts';

// Two instances of the SMPP server (two workers compositions on one database, each on its own port): a
// credential's max_binds and tps hold across both. Both run on one fixed sending clock, so every submit falls in
// the same second and what the tps lets through is a count, not a matter of timing.
const noon = new Date('2026-03-10T01:00:00Z');
let a: TestApp;
let b: TestApp;
const sessions: Session[] = [];

beforeAll(async () => {
  a = await createTestApp({ SMPP_SERVER_PORT: '0' }, { workers: true, now: () => noon });
  b = await createTestApp({ SMPP_SERVER_PORT: '0' }, { workers: true, now: () => noon, database: a.config.databaseUrl! });
});
afterAll(async () => {
  for (const s of sessions) s.destroy();
  await b?.close();
  await a?.close();
});

async function connect(to: TestApp): Promise<Session> {
  const session = smpp.connect({ host: '127.0.0.1', port: to.smppServer!.port });
  sessions.push(session);
  session.on('error', () => {});
  await once(session as unknown as NodeJS.EventEmitter, 'connect');
  return session;
}

async function credential(body: Record<string, unknown>) {
  const acct = await createAccount(a.app, { credits: 100 });
  const cred = (await call(a.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'two instances', ...body })).body as { id: string; system_id: string; password: string };
  const bind = async (to: TestApp, mode = 'bind_transceiver') => {
    const session = await connect(to);
    return { session, status: (await ask(session, mode, { system_id: cred.system_id, password: cred.password })).command_status };
  };
  return { acct, cred, bind };
}

describe('SMPP server: limits across instances', () => {
  it('holds max_binds across both: the bind beyond it is refused on either, and a bind closed on one frees a place on the other', async () => {
    const { cred, bind } = await credential({ max_binds: 2 });
    const first = await bind(a);
    expect(first.status).toBe(0);
    expect((await bind(b, 'bind_transmitter')).status).toBe(0);
    expect((await bind(b, 'bind_receiver')).status).toBe(0x0d);
    expect((await bind(a)).status).toBe(0x0d);

    first.session.close();
    await pollUntil(() => rows(a.services.db, sql`select id from smpp_binds where credential_id = ${cred.id}`), (r) => r.length === 1, 'the bind closed on the first instance let go');
    expect((await bind(b)).status).toBe(0);
    expect((await bind(a)).status).toBe(0x0d);
  });

  it('holds tps across both: in one second, submits beyond it on either answer ESME_RTHROTTLED', async () => {
    const { bind } = await credential({ tps: 3 });
    const onA = await bind(a);
    const onB = await bind(b);
    expect([onA.status, onB.status]).toEqual([0, 0]);
    const submit = (session: Session) => ask(session, 'submit_sm', { destination_addr: mobile().slice(1), dest_addr_ton: 1, short_message: 'hi' });
    const answers = await Promise.all([onA.session, onB.session, onA.session, onB.session, onA.session, onB.session, onA.session, onB.session].map(submit));
    const statuses = answers.map((r) => r.command_status);
    expect(statuses.filter((s) => s === 0)).toHaveLength(3);
    expect(statuses.filter((s) => s === 0x58)).toHaveLength(5);
    // Still that second: a later submit on either is throttled too.
    expect((await submit(onA.session)).command_status).toBe(0x58);
    expect((await submit(onB.session)).command_status).toBe(0x58);
  });
});
