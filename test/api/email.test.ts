// Mail Tasman sends: invitations, password resets and a sub-account owner's invitation, received by a real SMTP
// server on loopback (SMTP_URL); and, without SMTP_URL, kept in the outbox the operator reads (GET /admin/outbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount } from '../support/factories.ts';
import { acceptInvite, inviteToken, PASSWORD } from '../support/sessions.ts';
import { pollUntil } from '../support/poll.ts';
import { startSmtpInbox, type Received } from '../support/smtp.ts';
import { uuidv7 } from '../../src/platform/ids.ts';

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
let withSmtp: TestApp;
let withoutSmtp: TestApp;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  // A database of its own for the SMTP app: it sends every mail waiting in its outbox, and other test files leave
  // theirs waiting in the shared one.
  [withSmtp, withoutSmtp] = await Promise.all([createTestApp({ SMTP_URL: smtp.url }, { ownDatabase: true }), createTestApp()]);
});
afterAll(async () => {
  await Promise.all([withSmtp?.close(), withoutSmtp?.close()]);
  await smtp?.close();
});

const mailTo = (to: string, match: RegExp) => pollUntil(async () => smtp.inbox.find((m) => m.to === to && match.test(m.text)), (m) => m !== undefined, `mail to ${to}`, 20_000) as Promise<Received>;
const linkIn = (text: string, path: string) => new RegExp(`http://[^\\s]+/app/${path}#[\\w-]{43}`).exec(text)![0];
const email = () => `someone-${randomUUID()}@cafe.test`;

describe('with an SMTP server (SMTP_URL)', () => {
  it('an invitation arrives by email; its link signs the member in', async () => {
    const t = withSmtp;
    const acct = await createAccount(t.app);
    const to = email();
    const res = await call(t.app, acct.apiKey, 'POST', '/team', { email: to, can_send: false });
    expect(res.status).toBe(201);
    expect(res.body.email_sent).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
    const mail = await mailTo(to, /invite/);
    const link = linkIn(mail.text, 'invite');
    expect(link).toBe(res.body.invite_link);
    expect((await acceptInvite(t.app, link)).userId).toBeTruthy();
  });

  it('a forgotten password: 202 for any email; the link resets once and ends the user\'s sessions', async () => {
    const t = withSmtp;
    const to = email();
    const created = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email: to });
    const ownerMail = await mailTo(to, /invite/);
    const session = await acceptInvite(t.app, linkIn(ownerMail.text, 'invite'));
    expect(created.status).toBe(201);
    for (const who of [to, email()]) {
      const res = await t.app.inject({ method: 'POST', url: '/password/forgot', payload: { email: who } });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ ok: true });
    }
    const reset = await mailTo(to, /reset/);
    const token = new URL(linkIn(reset.text, 'reset')).hash.slice(1);
    // Stored only as a hash: the token is nowhere in the database.
    const stored = await t.services.db.execute(`select count(*)::int as n from password_resets where token_hash = '${token}'`);
    expect((stored as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    const weak = await t.app.inject({ method: 'POST', url: '/password/reset', payload: { token, password: 'short' } });
    expect(weak.statusCode).toBe(400);
    const done = await t.app.inject({ method: 'POST', url: '/password/reset', payload: { token, password: 'a brand new pass phrase' } });
    expect(done.statusCode).toBe(200);
    expect(done.headers['cache-control']).toBe('no-store');
    const again = await t.app.inject({ method: 'POST', url: '/password/reset', payload: { token, password: 'another new pass phrase' } });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('reset_invalid');
    // The session open before the reset has ended; the old password no longer works, the new one does.
    expect((await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: session.cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/session', payload: { email: to, password: PASSWORD } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/session', payload: { email: to, password: 'a brand new pass phrase' } })).statusCode).toBe(200);
  });

  it('a reset link expires after an hour', async () => {
    const t = withSmtp;
    const to = email();
    await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email: to });
    await t.app.inject({ method: 'POST', url: '/password/forgot', payload: { email: to } });
    const token = new URL(linkIn((await mailTo(to, /reset/)).text, 'reset')).hash.slice(1);
    await t.services.db.execute(`update password_resets set expires_at = now() - interval '1 second'
      where user_id in (select id from account_users where email = '${to}')`);
    const res = await t.app.inject({ method: 'POST', url: '/password/reset', payload: { token, password: 'a brand new pass phrase' } });
    expect(res.statusCode).toBe(404);
  });

  it('mail older than a day stays in the outbox unsent (SMTP configured later sends no stale links)', async () => {
    const t = withSmtp;
    const [stale, fresh] = [email(), email()];
    // Written before the invitation below, so it would go out first if it were sent at all.
    await t.services.db.execute(`insert into email_outbox (id, kind, to_address, subject, body, created_at)
      values ('${uuidv7()}', 'invite', '${stale}', 'Your invitation', 'an old invite', now() - interval '25 hours')`);
    const acct = await createAccount(t.app);
    expect((await call(t.app, acct.apiKey, 'POST', '/team', { email: fresh })).status).toBe(201);
    await mailTo(fresh, /invite/);
    await t.services.mail.idle();
    expect(smtp.inbox.some((m) => m.to === stale)).toBe(false);
    const kept = await t.app.inject({ method: 'GET', url: `/admin/outbox?to=${encodeURIComponent(stale)}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(kept.json().mail).toMatchObject([{ to: stale, sent_at: null, body: 'an old invite' }]);
  });

  it('a parent creating a sub-account with an email invites its owner by email', async () => {
    const t = withSmtp;
    const parent = await createAccount(t.app, { hierarchy: true });
    const to = email();
    const res = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Branch', email: to });
    expect(res.status).toBe(201);
    const mail = await mailTo(to, /invite/);
    const owner = await acceptInvite(t.app, linkIn(mail.text, 'invite'));
    const me = await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: owner.cookie } });
    expect(me.json().account.id).toBe(res.body.account_id);
  });
});

describe('without SMTP_URL: the outbox', () => {
  it('keeps the mail for the operator (GET /admin/outbox, no-store), link included', async () => {
    const t = withoutSmtp;
    const acct = await createAccount(t.app);
    const to = email();
    const res = await call(t.app, acct.apiKey, 'POST', '/team', { email: to });
    expect(res.body.email_sent).toBe(false);
    await t.app.inject({ method: 'POST', url: '/password/forgot', payload: { email: to } });
    const outbox = await t.app.inject({ method: 'GET', url: `/admin/outbox?to=${encodeURIComponent(to.toUpperCase())}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.headers['cache-control']).toBe('no-store');
    const mail = outbox.json().mail as Array<{ kind: string; body: string; sent_at: string | null }>;
    expect(mail.map((m) => m.kind)).toEqual(['password_reset', 'invite']);
    expect(mail.every((m) => m.sent_at === null)).toBe(true);
    expect(mail[1]!.body).toContain(res.body.invite_link as string);
    const token = new URL(linkIn(mail[0]!.body, 'reset')).hash.slice(1);
    expect((await t.app.inject({ method: 'POST', url: '/password/reset', payload: { token, password: 'a brand new pass phrase' } })).statusCode).toBe(200);
    expect(inviteToken(res.body.invite_link as string)).toHaveLength(43);
  });

  it('at most three reset mails an hour for one email', async () => {
    const t = withoutSmtp;
    const to = email();
    await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email: to });
    for (let i = 0; i < 5; i++) expect((await t.app.inject({ method: 'POST', url: '/password/forgot', payload: { email: to } })).statusCode).toBe(202);
    const outbox = await t.app.inject({ method: 'GET', url: `/admin/outbox?to=${encodeURIComponent(to)}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect((outbox.json().mail as Array<{ kind: string }>).filter((m) => m.kind === 'password_reset')).toHaveLength(3);
  });
});
