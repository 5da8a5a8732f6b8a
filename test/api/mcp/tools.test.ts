import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../../support/factories.ts';
import { callTool, connectMcp, ok, refusal, type McpTransportKind } from '../../support/mcp-clients.ts';

// Both transports, driven by the official SDK client: every tool called, structured results shaped by the REST
// routes' 200 schemas, refusals as tool errors carrying the API's code.

const READ_TOOLS = ['preview_message', 'search_messages', 'get_message', 'list_campaigns', 'get_campaign', 'list_inbox', 'get_conversation', 'list_optouts', 'get_balance', 'get_report', 'list_numbers', 'list_sub_accounts', 'get_settings', 'list_contacts', 'list_templates'];
const WRITE_TOOLS = ['send_sms', 'schedule_sms', 'cancel_scheduled', 'send_batch', 'reply_to_inbound', 'mark_inbound_read', 'allocate_credits', 'add_optout', 'send_to_list'];
// Writes that can be undone or repeated without harm: an opt-out, marking read, and a schedule until cancel_scheduled refunds it.
const NOT_DESTRUCTIVE = ['add_optout', 'schedule_sms', 'mark_inbound_read'];
// A day ahead of the server's clock: well inside the 35-day limit, never due during the test.
const tomorrow = () => new Date(Date.now() + 24 * 3600_000).toISOString();

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ MCP_MAX_CREDITS_PER_CALL: '20', WEBHOOK_ALLOW_PRIVATE: 'true' });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => { await t.close(); });

async function keyWithScopes(account: TestAccount, scopes: string[]): Promise<string> {
  const res = await admin(t.app, 'POST', `/admin/accounts/${account.accountId}/keys`, { name: 'agent', scopes });
  expect(res.status).toBe(201);
  expect(res.body.scopes).toEqual(scopes);
  return res.body.key as string;
}

describe.each<McpTransportKind>(['http', 'stdio'])('MCP over %s', (kind) => {
  let owner: TestAccount;
  let number: string;
  let client: Client;
  let readOnly: Client;
  beforeAll(async () => {
    owner = await createAccount(t.app, { credits: 100, hierarchy: true });
    number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: owner.accountId })).status).toBe(201);
    // `tasman mcp` applies the guard rail in the agent's process, from its own environment.
    client = await connectMcp(kind, baseUrl, owner.apiKey, { MCP_MAX_CREDITS_PER_CALL: '20' });
    readOnly = await connectMcp(kind, baseUrl, await keyWithScopes(owner, ['read']));
  });
  afterAll(async () => { await client.close(); await readOnly.close(); });

  it('lists every tool with its input schema and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      // Left out to keep the list small (decision 0072): results are the REST routes' documented 200 bodies.
      expect(tool.outputSchema).toBeUndefined();
      expect(tool.annotations?.readOnlyHint).toBe(READ_TOOLS.includes(tool.name));
      if (WRITE_TOOLS.includes(tool.name)) expect(tool.annotations?.destructiveHint, tool.name).toBe(!NOT_DESTRUCTIVE.includes(tool.name));
    }
    const send = tools.find((tool) => tool.name === 'send_sms')!;
    expect(send.inputSchema.required).toEqual(['to', 'message']);
    const schedule = tools.find((tool) => tool.name === 'schedule_sms')!;
    expect(schedule.inputSchema.required).toEqual(['to', 'message', 'send_at']);
    expect(schedule.annotations).toMatchObject({ idempotentHint: false });
    expect(tools.find((tool) => tool.name === 'cancel_scheduled')!.annotations).toMatchObject({ idempotentHint: true });
  });

  it('sends, tracks and reports through the tools', async () => {
    const to = mobile();
    const sent = ok(await callTool(client, 'send_sms', { to, message: 'Your table is ready' }));
    expect(sent).toMatchObject({ credits_used: 1, message_id: expect.any(String) });
    const got = ok(await callTool(client, 'get_message', { message_id: sent.message_id }));
    expect(got.message).toMatchObject({ id: sent.message_id, recipient: to, body: 'Your table is ready' });

    const batch = ok(await callTool(client, 'send_batch', {
      message: 'Hi {{name}}', recipients: [{ phone: mobile(), merge_data: { name: 'Ana' } }, mobile(), '12345'],
    }));
    expect(batch).toMatchObject({ recipients_queued: 2, invalid_numbers: ['12345'], credits_used: 2 });
    const campaign = ok(await callTool(client, 'get_campaign', { campaign_id: batch.campaign_id, limit: 1 }));
    expect(campaign).toMatchObject({ stats: { total: 2 }, limit: 1, offset: 0 });
    expect(campaign.messages).toHaveLength(1);

    const balance = ok(await callTool(client, 'get_balance'));
    expect(balance.credits).toBe(sent.credits_remaining as number - 2);
    const report = ok(await callTool(client, 'get_report', { direction: 'outbound' }));
    expect(report).toMatchObject({ account_id: owner.accountId, summary: { messages: { total: 3 } } });
    expect(ok(await callTool(client, 'list_numbers')).numbers).toEqual([expect.objectContaining({ number })]);
    expect(ok(await callTool(client, 'get_settings'))).toEqual({ settings: { quiet_hours: null, time_zone: 'Australia/Sydney', link_tracking: false, country: 'AU', low_balance_threshold: null } });
    const preview = ok(await callTool(client, 'preview_message', { to, message: 'x'.repeat(161) }));
    expect(preview).toMatchObject({ opted_out: false });
    const found = ok(await callTool(client, 'search_messages', { limit: 1 }));
    expect(found.messages).toHaveLength(1);
    expect(ok(await callTool(client, 'get_balance')).credits).toBe(balance.credits);
    const added = ok(await callTool(client, 'add_optout', { number: to }));
    expect(added).toMatchObject({ created: true, optout: { number: to } });
    expect(refusal(await callTool(client, 'send_sms', { to, message: 'again' })).code).toBe('recipient_opted_out');
  });

  it('schedules a message, shows it scheduled, and cancels it with a refund', async () => {
    const before = ok(await callTool(client, 'get_balance')).credits as number;
    const to = mobile();
    const scheduled = ok(await callTool(client, 'schedule_sms', { to, message: 'See you at 7pm', send_at: tomorrow() }));
    expect(scheduled).toMatchObject({ message_id: expect.any(String), credits_used: 1, credits_remaining: before - 1 });
    const waiting = ok(await callTool(client, 'get_message', { message_id: scheduled.message_id }));
    expect(waiting.message).toMatchObject({ id: scheduled.message_id, recipient: to, status: 'scheduled' });

    const cancelled = ok(await callTool(client, 'cancel_scheduled', { message_id: scheduled.message_id }));
    expect(cancelled).toEqual({ ok: true, status: 'cancelled', credits_refunded: 1, credits_remaining: before });
    const after = ok(await callTool(client, 'get_message', { message_id: scheduled.message_id }));
    expect(after.message).toMatchObject({ status: 'cancelled' });
    expect(ok(await callTool(client, 'get_balance')).credits).toBe(before);
    // A second cancel changes nothing and says why.
    expect(refusal(await callTool(client, 'cancel_scheduled', { message_id: scheduled.message_id })).code).toBe('not_scheduled');
  });

  it('refuses schedules and cancels the API refuses, as tool errors with its code', async () => {
    const sent = ok(await callTool(client, 'send_sms', { to: mobile(), message: 'now' }));
    expect(refusal(await callTool(client, 'cancel_scheduled', { message_id: sent.message_id })).code).toBe('not_scheduled');
    const missing = refusal(await callTool(client, 'cancel_scheduled', { message_id: '018f0000-0000-7000-8000-000000000000' }));
    expect(missing.code).toBe('not_found');

    const before = ok(await callTool(client, 'get_balance')).credits;
    const noTime = refusal(await callTool(client, 'schedule_sms', { to: mobile(), message: 'later' }));
    expect(noTime).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'send_at' })] });
    const past = new Date(Date.now() - 3600_000).toISOString();
    expect(refusal(await callTool(client, 'schedule_sms', { to: mobile(), message: 'later', send_at: past })).code).toBe('invalid_send_at');
    // The same guard rail as send_sms: 21 parts is over the limit of 20.
    const long = refusal(await callTool(client, 'schedule_sms', { to: mobile(), message: 'x'.repeat(3081), send_at: tomorrow() }));
    expect(long).toMatchObject({ code: 'credit_limit_exceeded', credits_required: 21, max_credits_per_call: 20 });
    expect(ok(await callTool(client, 'get_balance')).credits).toBe(before);
  });

  it('reads the inbox, replies from the number written to, and lists opt-outs', async () => {
    const person = mobile();
    const row = await t.services.inbox.receive({ from: person, to: number, text: 'Is 7pm ok?', receivedAt: new Date() });
    const inbox = ok(await callTool(client, 'list_inbox', { from: person.slice(-6) }));
    expect(inbox).toMatchObject({ total: 1, messages: [{ id: row!.id, from: person, to: number, body: 'Is 7pm ok?' }] });
    const reply = ok(await callTool(client, 'reply_to_inbound', { inbound_id: row!.id, message: '7pm is fine' }));
    expect(ok(await callTool(client, 'list_inbox', { unread: true, from: person.slice(-6) })).messages).toEqual([expect.objectContaining({ id: row!.id, unread: true })]);
    expect(ok(await callTool(client, 'mark_inbound_read', { inbound_id: row!.id }))).toMatchObject({ ok: true, marked: 1 });
    const convo = ok(await callTool(client, 'get_conversation', { number: person }));
    expect((convo.messages as Array<{ direction: string; body: string; unread: boolean }>).map((m) => [m.direction, m.body, m.unread]))
      .toEqual([['inbound', 'Is 7pm ok?', false], ['outbound', '7pm is fine', false]]);
    const message = ok(await callTool(client, 'get_message', { message_id: reply.message_id }));
    expect(message.message).toMatchObject({ recipient: person, sender: number, body: '7pm is fine' });

    await t.services.inbox.receive({ from: person, to: number, text: 'STOP', receivedAt: new Date() });
    const optouts = ok(await callTool(client, 'list_optouts'));
    expect(optouts.optouts).toContainEqual(expect.objectContaining({ number: person }));
    // The opted-out recipient is refused as a tool error with the API's code, nothing charged.
    const before = ok(await callTool(client, 'get_balance')).credits;
    expect(refusal(await callTool(client, 'send_sms', { to: person, message: 'one more thing' })).code).toBe('recipient_opted_out');
    expect(ok(await callTool(client, 'get_balance')).credits).toBe(before);
  });

  it('lists sub-accounts and allocates credits to one', async () => {
    const created = await call(t.app, owner.apiKey, 'POST', '/accounts', { business_name: 'Client One', email: `c1-${Date.now()}@example.com` });
    expect(created.status).toBe(201);
    const subId = created.body.account_id as string;
    expect(ok(await callTool(client, 'list_sub_accounts')).accounts).toContainEqual(expect.objectContaining({ id: subId }));
    const moved = ok(await callTool(client, 'allocate_credits', { account_id: subId, amount: 3 }));
    expect(moved).toMatchObject({ ok: true, direction: 'allocate', amount: 3, credits: 3 });
  });

  it('returns refusals as tool errors with the API code', async () => {
    const bad = refusal(await callTool(client, 'send_sms', { to: '+1 202 555 0100', message: 'hi' }));
    expect(bad).toMatchObject({ code: 'invalid_number', error: expect.stringContaining('not an Australian or New Zealand mobile') });
    const invalid = refusal(await callTool(client, 'send_sms', { to: mobile() }));
    expect(invalid).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'message' })] });
    const missing = refusal(await callTool(client, 'get_message', { message_id: '018f0000-0000-7000-8000-000000000000' }));
    expect(missing.code).toBe('not_found');

    const broke = await createAccount(t.app, { credits: 0 });
    const poor = await connectMcp(kind, baseUrl, broke.apiKey);
    try {
      const refused = refusal(await callTool(poor, 'send_sms', { to: mobile(), message: 'hi' }));
      expect(refused).toMatchObject({ code: 'insufficient_credits', credits_required: 1, credits_available: 0 });
    } finally {
      await poor.close();
    }
  });

  it('refuses a call that could spend more than MCP_MAX_CREDITS_PER_CALL, before spending anything', async () => {
    const before = ok(await callTool(client, 'get_balance')).credits;
    const recipients = Array.from({ length: 21 }, () => mobile());
    const refused = refusal(await callTool(client, 'send_batch', { message: 'Sale today', recipients }));
    expect(refused).toMatchObject({ code: 'credit_limit_exceeded', credits_required: 21, max_credits_per_call: 20 });
    expect(refused.error).toMatch(/ask your user/i);
    expect(ok(await callTool(client, 'get_balance')).credits).toBe(before);
    // 20 recipients is within the limit.
    expect(ok(await callTool(client, 'send_batch', { message: 'Sale today', recipients: recipients.slice(1) })).credits_used).toBe(20);
  });

  it('lets a read-only key call every read tool and no writing tool', async () => {
    const sent = ok(await callTool(client, 'send_batch', { message: 'hello', recipients: [mobile()] }));
    const inbound = await t.services.inbox.receive({ from: mobile(), to: number, text: 'hi', receivedAt: new Date() });
    const campaign = ok(await callTool(client, 'get_campaign', { campaign_id: sent.campaign_id }));
    const messageId = (campaign.messages as Array<{ id: string }>)[0]!.id;
    const scheduled = ok(await callTool(client, 'schedule_sms', { to: mobile(), message: 'later', send_at: tomorrow() }));
    const list = await call(t.app, owner.apiKey, 'POST', '/lists', { name: 'Read-only test' });
    await call(t.app, owner.apiKey, 'POST', '/contacts', { phone: mobile(), lists: [list.body.id] });
    const readArgs: Record<string, Record<string, unknown>> = {
      get_message: { message_id: messageId }, get_campaign: { campaign_id: sent.campaign_id },
      preview_message: { to: mobile(), message: 'hi' }, get_conversation: { number: mobile() },
    };
    for (const name of READ_TOOLS) ok(await callTool(readOnly, name, readArgs[name] ?? {}));
    const writeArgs: Record<string, Record<string, unknown>> = {
      send_sms: { to: mobile(), message: 'hi' },
      schedule_sms: { to: mobile(), message: 'hi', send_at: tomorrow() },
      cancel_scheduled: { message_id: scheduled.message_id },
      send_batch: { message: 'hi', recipients: [mobile()] },
      reply_to_inbound: { inbound_id: inbound!.id, message: 'hi' },
      mark_inbound_read: { inbound_id: inbound!.id },
      allocate_credits: { account_id: owner.accountId, amount: 1 },
      add_optout: { number: mobile() },
      send_to_list: { list_id: list.body.id, message: 'hi' },
    };
    for (const name of WRITE_TOOLS) {
      expect(refusal(await callTool(readOnly, name, writeArgs[name]!)), name).toMatchObject({ code: 'insufficient_scope' });
    }
    // The refused cancel left the schedule alone.
    expect(ok(await callTool(client, 'get_message', { message_id: scheduled.message_id })).message).toMatchObject({ status: 'scheduled' });
  });

  it('serves the account summary and recent inbound as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['tasman://account/summary', 'tasman://inbox/recent']);
    const saved = await call(t.app, owner.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://user:secret@127.0.0.1:9/hook', enabled: true });
    expect(saved.status).toBe(200);
    const summary = await client.readResource({ uri: 'tasman://account/summary' });
    const body = JSON.parse((summary.contents[0] as { text: string }).text);
    expect(body).toMatchObject({
      credits: expect.any(Number), numbers: [expect.objectContaining({ number })], sender_ids: [],
      webhooks: { delivery_receipt: { configured: true, enabled: true }, inbound: { configured: false } },
    });
    expect(JSON.stringify(body)).not.toContain('secret');
    const recent = await client.readResource({ uri: 'tasman://inbox/recent' });
    expect(JSON.parse((recent.contents[0] as { text: string }).text)).toMatchObject({ limit: 20, messages: expect.any(Array) });
  });
});
