// GET/PUT /settings (the caller's own account) and the same fields through PATCH /account/{id} by a parent:
// quiet hours, the time zone of Australian recipients, the link-tracking default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';
import { ownerSession, sessionCall } from '../support/sessions.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


const DEFAULTS = { quiet_hours: null, time_zone: 'Australia/Sydney', link_tracking: false, country: 'AU', low_balance_threshold: null };

describe('GET/PUT /settings', () => {
  it('starts at the defaults; PUT changes only the fields it names, and GET reads them back', async () => {
    const a = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'GET', '/settings')).body).toEqual({ settings: DEFAULTS });
    const put = await call(t.app, a.apiKey, 'PUT', '/settings', { quiet_hours: { start: '21:00', end: '08:00' }, time_zone: 'Australia/Perth' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ok: true, settings: { quiet_hours: { start: '21:00', end: '08:00' }, time_zone: 'Australia/Perth', link_tracking: false, country: 'AU', low_balance_threshold: null } });
    await call(t.app, a.apiKey, 'PUT', '/settings', { link_tracking: true });
    expect((await call(t.app, a.apiKey, 'GET', '/settings')).body.settings)
      .toEqual({ quiet_hours: { start: '21:00', end: '08:00' }, time_zone: 'Australia/Perth', link_tracking: true, country: 'AU', low_balance_threshold: null });
    // null turns quiet hours off; an empty body changes nothing.
    await call(t.app, a.apiKey, 'PUT', '/settings', { quiet_hours: null });
    expect((await call(t.app, a.apiKey, 'PUT', '/settings', {})).body.settings).toEqual({ quiet_hours: null, time_zone: 'Australia/Perth', link_tracking: true, country: 'AU', low_balance_threshold: null });
  });

  it('is per account: another account\'s settings are untouched', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/settings', { time_zone: 'Australia/Adelaide', link_tracking: true });
    expect((await call(t.app, b.apiKey, 'GET', '/settings')).body.settings).toEqual(DEFAULTS);
  });

  it.each([
    ['an unknown zone', { time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
    ['a fixed offset (no daylight saving)', { time_zone: '+10:00' }, 'time_zone'],
    ['a window that opens and closes at once', { quiet_hours: { start: '21:00', end: '21:00' } }, 'quiet_hours'],
    ['a time that is not HH:MM', { quiet_hours: { start: '9pm', end: '08:00' } }, 'quiet_hours'],
    ['24:00', { quiet_hours: { start: '21:00', end: '24:00' } }, 'quiet_hours'],
    ['a missing end', { quiet_hours: { start: '21:00' } }, 'quiet_hours'],
    ['a string for link_tracking', { link_tracking: 'yes' }, 'link_tracking'],
  ] as const)('400 validation_failed for %s, nothing changed', async (_why, body, field) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'PUT', '/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(JSON.stringify(res.body)).toContain(field);
    expect((await call(t.app, a.apiKey, 'GET', '/settings')).body.settings).toEqual(DEFAULTS);
  });

  it('stores the runtime\'s canonical zone name', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'PUT', '/settings', { time_zone: 'australia/melbourne' });
    expect(res.body.settings).toMatchObject({ time_zone: 'Australia/Melbourne' });
  });

  it('a read-only key may read but not change them (manage scope)', async () => {
    const a = await createAccount(t.app);
    const key = await call(t.app, a.apiKey, 'POST', '/keys', { name: 'ro', scopes: ['read'] });
    const ro = key.body.key as string;
    expect((await call(t.app, ro, 'GET', '/settings')).status).toBe(200);
    const res = await call(t.app, ro, 'PUT', '/settings', { link_tracking: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });

  it('through a dashboard session, with the CSRF header on the write', async () => {
    const a = await createAccount(t.app);
    const s = await ownerSession(t.app, a);
    expect((await sessionCall(t.app, s, 'PUT', '/settings', { time_zone: 'Pacific/Auckland' }, { csrf: false })).status).toBe(403);
    expect((await sessionCall(t.app, s, 'PUT', '/settings', { time_zone: 'Pacific/Auckland' })).status).toBe(200);
    expect((await sessionCall(t.app, s, 'GET', '/settings')).body.settings).toMatchObject({ time_zone: 'Pacific/Auckland' });
  });
});

describe('PATCH /account/{id}: a parent sets a sub-account\'s settings', () => {
  async function family(child: object = {}) {
    const parent = await createAccount(t.app, { hierarchy: true });
    const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child', email: `c-${Date.now()}-${Math.random()}@example.com`, ...child });
    const childId = created.body.id as string;
    const key = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/key`, { name: 'k' });
    return { parent, childId, childKey: key.body.key as string };
  }

  it('sets them beside the other fields; GET /account/{id} and the child\'s own GET /settings show them', async () => {
    const { parent, childId, childKey } = await family();
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject(DEFAULTS);
    const res = await call(t.app, parent.apiKey, 'PATCH', `/account/${childId}`, {
      business_name: 'Renamed', quiet_hours: { start: '20:30', end: '07:45' }, time_zone: 'Australia/Brisbane', low_balance_threshold: 250,
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({ business_name: 'Renamed', quiet_hours: { start: '20:30', end: '07:45' }, time_zone: 'Australia/Brisbane', link_tracking: false, low_balance_threshold: 250 });
    expect((await call(t.app, childKey, 'GET', '/settings')).body.settings).toEqual({ quiet_hours: { start: '20:30', end: '07:45' }, time_zone: 'Australia/Brisbane', link_tracking: false, country: 'AU', low_balance_threshold: 250 });
    // The parent's own settings are its own.
    expect((await call(t.app, parent.apiKey, 'GET', '/settings')).body.settings).toEqual(DEFAULTS);
  });

  it('a bad zone is 400 and changes nothing else in the same request', async () => {
    const { parent, childId } = await family();
    const res = await call(t.app, parent.apiKey, 'PATCH', `/account/${childId}`, { business_name: 'Renamed', time_zone: 'Nowhere/Special' });
    expect(res.status).toBe(400);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject({ business_name: 'Child', time_zone: 'Australia/Sydney' });
  });

  it('403 not_managed_by_parent when the sub-account manages itself; 404 for a stranger\'s account', async () => {
    const { parent, childId } = await family({ managed_by_parent: false });
    const res = await call(t.app, parent.apiKey, 'PATCH', `/account/${childId}`, { quiet_hours: { start: '21:00', end: '08:00' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('not_managed_by_parent');
    const stranger = await createAccount(t.app, { hierarchy: true });
    expect((await call(t.app, stranger.apiKey, 'PATCH', `/account/${childId}`, { link_tracking: true })).status).toBe(404);
  });
});
