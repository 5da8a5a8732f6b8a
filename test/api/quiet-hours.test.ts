// Quiet hours on the send path, on a fixed clock: a message that would arrive inside the
// recipient's local quiet window answers 200, is `scheduled`, and has `scheduled_at` at the window's end. New
// Zealand numbers keep Auckland's clock whatever the account's zone; Australian numbers keep the account's.
// Expected instants are written as local times with their offsets (calendar arithmetic), never computed by timers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

// Wednesday 14 July 2027, 22:00 in Sydney (AEST, +10) and 00:00 on the 15th in Auckland (NZST, +12).
const WINTER_NIGHT = new Date('2027-07-14T22:00:00+10:00');
// Saturday 2 October 2027, 23:00 AEST: Sydney's clocks go forward at 02:00 that night (first Sunday of October).
const SPRING_NIGHT = new Date('2027-10-02T23:00:00+10:00');
let clock = WINTER_NIGHT;

let t: TestApp;
beforeAll(async () => { t = await createTestApp({}, { now: () => clock }); });
afterAll(async () => { await t.close(); });

const NIGHT = { start: '21:00', end: '08:00' };
const iso = (s: string) => new Date(s).toISOString();
let nzSequence = 0;
const nzMobile = () => `+6421${String(Date.now() % 10_000).padStart(4, '0')}${String(++nzSequence % 1000).padStart(3, '0')}`;

async function account(settings: object = { quiet_hours: NIGHT }, credits = 20) {
  const a = await createAccount(t.app, { credits });
  expect((await call(t.app, a.apiKey, 'PUT', '/settings', settings)).status).toBe(200);
  return a;
}
const message = async (key: string, id: unknown) => (await call(t.app, key, 'GET', `/message/${id as string}`)).body.message as Record<string, unknown>;
const send = (key: string, body: object) => call(t.app, key, 'POST', '/send', { message: 'hello', ...body });

describe('quiet hours on /send', () => {
  it('an Australian recipient at 22:00 Sydney time is held until 08:00, answered 200 and charged like any send', async () => {
    clock = WINTER_NIGHT;
    const a = await account();
    const res = await send(a.apiKey, { to: mobile() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ credits_used: 1, credits_remaining: 19 });
    expect(await message(a.apiKey, res.body.message_id)).toMatchObject({ status: 'scheduled', scheduled_at: iso('2027-07-15T08:00:00+10:00') });
  });

  it('a New Zealand recipient keeps Auckland\'s clock: held until 08:00 NZST, two hours before Sydney\'s 08:00', async () => {
    clock = WINTER_NIGHT;
    const a = await account({ quiet_hours: NIGHT, time_zone: 'Australia/Perth' });
    const res = await send(a.apiKey, { to: nzMobile() });
    expect(res.status).toBe(200);
    expect(await message(a.apiKey, res.body.message_id)).toMatchObject({ status: 'scheduled', scheduled_at: iso('2027-07-15T08:00:00+12:00') });
  });

  it('an Australian recipient follows the account\'s zone: 20:00 in Perth is outside the window, so it goes now', async () => {
    clock = WINTER_NIGHT;
    const a = await account({ quiet_hours: NIGHT, time_zone: 'Australia/Perth' });
    const res = await send(a.apiKey, { to: mobile() });
    expect(await message(a.apiKey, res.body.message_id)).toMatchObject({ status: 'queued', scheduled_at: null });
  });

  it('urgent: true goes now; without quiet hours nothing is held', async () => {
    clock = WINTER_NIGHT;
    const a = await account();
    const urgent = await send(a.apiKey, { to: mobile(), urgent: true });
    expect(await message(a.apiKey, urgent.body.message_id)).toMatchObject({ status: 'queued', scheduled_at: null });
    const off = await account({});
    const plain = await send(off.apiKey, { to: mobile() });
    expect(await message(off.apiKey, plain.body.message_id)).toMatchObject({ status: 'queued', scheduled_at: null });
  });

  it('send_at inside the window moves to its end; send_at outside it stands', async () => {
    clock = WINTER_NIGHT;
    const a = await account();
    const inside = await send(a.apiKey, { to: mobile(), send_at: '2027-07-20T23:30:00+10:00' });
    expect(await message(a.apiKey, inside.body.message_id)).toMatchObject({ status: 'scheduled', scheduled_at: iso('2027-07-21T08:00:00+10:00') });
    const outside = await send(a.apiKey, { to: mobile(), send_at: '2027-07-20T12:00:00+10:00' });
    expect(await message(a.apiKey, outside.body.message_id)).toMatchObject({ status: 'scheduled', scheduled_at: iso('2027-07-20T12:00:00+10:00') });
    const urgent = await send(a.apiKey, { to: mobile(), send_at: '2027-07-20T23:30:00+10:00', urgent: true });
    expect(await message(a.apiKey, urgent.body.message_id)).toMatchObject({ scheduled_at: iso('2027-07-20T23:30:00+10:00') });
  });

  it('on the night Sydney\'s clocks go forward, 23:00 AEST is held until 08:00 AEDT (eight hours later)', async () => {
    clock = SPRING_NIGHT;
    const a = await account();
    const res = await send(a.apiKey, { to: mobile() });
    const held = await message(a.apiKey, res.body.message_id);
    expect(held.scheduled_at).toBe(iso('2027-10-03T08:00:00+11:00'));
    expect(new Date(held.scheduled_at as string).getTime() - SPRING_NIGHT.getTime()).toBe(8 * 3_600_000);
  });

  it('a held message is cancelled and refunded like any scheduled one', async () => {
    clock = WINTER_NIGHT;
    const a = await account({ quiet_hours: NIGHT }, 5);
    const res = await send(a.apiKey, { to: mobile() });
    const cancelled = await call(t.app, a.apiKey, 'DELETE', `/message/${res.body.message_id as string}`);
    expect(cancelled.body).toMatchObject({ ok: true, status: 'cancelled', credits_refunded: 1, credits_remaining: 5 });
  });
});

describe('quiet hours on /send-batch', () => {
  it('each recipient by its own clock: Australian and New Zealand numbers held to their own 08:00, urgent to none', async () => {
    clock = WINTER_NIGHT;
    const a = await account();
    const au = mobile();
    const nz = nzMobile();
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [au, nz], message: 'sale', campaign: 'night' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recipients_queued: 2, credits_used: 2 });
    const listed = (await call(t.app, a.apiKey, 'GET', `/messages?campaign_id=${res.body.campaign_id as string}`)).body.messages as Array<Record<string, unknown>>;
    const byTo = Object.fromEntries(listed.map((m) => [m.recipient, m]));
    expect(byTo[au]).toMatchObject({ status: 'scheduled', scheduled_at: iso('2027-07-15T08:00:00+10:00') });
    expect(byTo[nz]).toMatchObject({ status: 'scheduled', scheduled_at: iso('2027-07-15T08:00:00+12:00') });
    // The campaign shows the earliest wait: New Zealand's.
    const campaign = await call(t.app, a.apiKey, 'GET', `/campaign/${res.body.campaign_id as string}`);
    expect(JSON.stringify(campaign.body)).toContain(iso('2027-07-15T08:00:00+12:00'));

    const urgent = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile(), nzMobile()], message: 'code 1234', urgent: true });
    const sent = (await call(t.app, a.apiKey, 'GET', `/messages?campaign_id=${urgent.body.campaign_id as string}`)).body.messages as Array<Record<string, unknown>>;
    expect(sent.map((m) => m.status)).toEqual(['queued', 'queued']);
  });
});
