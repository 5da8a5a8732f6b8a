import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../../support/factories.ts';
import { callTool, connectMcp, ok, refusal, type McpTransportKind } from '../../support/mcp-clients.ts';

// What keeps an agent from misfiring: a retry with its idempotency_key never sends or moves twice (the REST
// Idempotency-Key, same scope), a misspelt argument is refused instead of ignored, the sub-account list holds only
// what it can fund, and the prompts walk through the common jobs.

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ MCP_MAX_CREDITS_PER_CALL: '20' });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => { await t.close(); });

describe.each<McpTransportKind>(['http', 'stdio'])('MCP over %s, for agents', (kind) => {
  let owner: TestAccount;
  let number: string;
  let client: Client;
  beforeAll(async () => {
    owner = await createAccount(t.app, { credits: 100, hierarchy: true });
    number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: owner.accountId })).status).toBe(201);
    client = await connectMcp(kind, baseUrl, owner.apiKey, { MCP_MAX_CREDITS_PER_CALL: '20' });
  });
  afterAll(async () => { await client.close(); });

  const balance = async () => ok(await callTool(client, 'get_balance')).credits as number;
  const key = () => `agent-${kind}-${Math.random().toString(36).slice(2)}`;

  it('replays a send, a batch and a reply retried with the same idempotency_key, charging once', async () => {
    const before = await balance();
    const send = { to: mobile(), message: 'Your order is ready', idempotency_key: key() };
    const first = ok(await callTool(client, 'send_sms', send));
    expect(ok(await callTool(client, 'send_sms', send))).toEqual(first);
    const batch = { message: 'Hi {{name}}', recipients: [{ phone: mobile(), merge_data: { name: 'Ana' } }, mobile()], idempotency_key: key() };
    const sent = ok(await callTool(client, 'send_batch', batch));
    expect(ok(await callTool(client, 'send_batch', batch))).toEqual(sent);
    const inbound = await t.services.inbox.receive({ from: mobile(), to: number, text: 'Open Sunday?', receivedAt: new Date() });
    const reply = { inbound_id: inbound!.id, message: 'Yes, 10 to 4', idempotency_key: key() };
    const replied = ok(await callTool(client, 'reply_to_inbound', reply));
    expect(ok(await callTool(client, 'reply_to_inbound', reply))).toEqual(replied);
    expect(await balance()).toBe(before - 4);

    // The key is the REST Idempotency-Key: the same scope, the same answer, whichever side used it first.
    const rest = await call(t.app, owner.apiKey, 'POST', '/send', { to: send.to, message: send.message }, { 'idempotency-key': send.idempotency_key });
    expect(rest.status).toBe(200);
    expect(rest.headers['idempotent-replayed']).toBe('true');
    expect(rest.body).toEqual(first);
    // Another text under a used key is refused, nothing sent.
    const other = refusal(await callTool(client, 'send_sms', { ...send, message: 'Something else' }));
    expect(other.code).toBe('idempotency_mismatch');
    // A key of another account is not this account's: it sends.
    const stranger = await createAccount(t.app, { credits: 5 });
    const theirs = await call(t.app, stranger.apiKey, 'POST', '/send', { to: send.to, message: send.message }, { 'idempotency-key': send.idempotency_key });
    expect(theirs.status).toBe(200);
    expect(theirs.body.message_id).not.toBe(first.message_id);
    expect(await balance()).toBe(before - 4);
  });

  it('replays an allocation retried with the same idempotency_key, and lists sub-accounts without the caller', async () => {
    const created = await call(t.app, owner.apiKey, 'POST', '/accounts', { business_name: 'Client Two', email: `c2-${kind}-${Date.now()}@example.com` });
    expect(created.status).toBe(201);
    const subId = created.body.account_id as string;
    const listed = ok(await callTool(client, 'list_sub_accounts')).accounts as Array<{ id: string }>;
    expect(listed.map((a) => a.id)).toContain(subId);
    expect(listed.map((a) => a.id)).not.toContain(owner.accountId);

    const before = await balance();
    const allocation = { account_id: subId, amount: 4, idempotency_key: key() };
    const moved = ok(await callTool(client, 'allocate_credits', allocation));
    expect(moved).toMatchObject({ amount: 4, credits: 4 });
    expect(ok(await callTool(client, 'allocate_credits', allocation))).toEqual(moved);
    expect(await balance()).toBe(before - 4);
    // The same key for another sub-account is another request: refused, not replayed.
    const second = await call(t.app, owner.apiKey, 'POST', '/accounts', { business_name: 'Client Three', email: `c3-${kind}-${Date.now()}@example.com` });
    const elsewhere = refusal(await callTool(client, 'allocate_credits', { ...allocation, account_id: second.body.account_id }));
    expect(elsewhere.code).toBe('idempotency_mismatch');
  });

  it('refuses unknown or misspelt arguments with the valid names, nothing done', async () => {
    const before = await balance();
    const search = refusal(await callTool(client, 'search_messages', { recipient: mobile() }));
    expect(search).toMatchObject({ code: 'validation_failed', details: [{ field: 'recipient', message: 'is not an argument of this tool' }] });
    expect(search.valid_arguments).toEqual(expect.arrayContaining(['to', 'status', 'q', 'cursor']));
    expect(search.error).toMatch(/^Unknown argument recipient: it takes limit, cursor, status, to/);
    const send = refusal(await callTool(client, 'send_sms', { to: mobile(), mesage: 'hi', message: 'hi' }));
    expect(send).toMatchObject({ code: 'validation_failed', details: [{ field: 'mesage', message: 'is not an argument of this tool (did you mean message?)' }] });
    expect(refusal(await callTool(client, 'get_balance', { account: owner.accountId })).error).toBe('Unknown argument account: it takes no arguments');
    expect(await balance()).toBe(before);
  });

  it('lists campaigns and reads one', async () => {
    const sent = ok(await callTool(client, 'send_batch', { message: 'Spring sale', campaign: `Spring ${kind}`, recipients: [mobile(), mobile()] }));
    const page = ok(await callTool(client, 'list_campaigns', { limit: 5 }));
    expect(page).toMatchObject({ limit: 5, offset: 0 });
    const listed = (page.campaigns as Array<{ id: string; name: string; stats: { total: number } }>).find((c) => c.id === sent.campaign_id);
    expect(listed).toMatchObject({ name: `Spring ${kind}`, stats: { total: 2 } });
    expect(ok(await callTool(client, 'get_campaign', { campaign_id: sent.campaign_id }))).toMatchObject({ stats: { total: 2 } });
  });

  it('offers a prompt that sends to a list and reports who replied', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['send_to_list_and_report_replies', 'answer_unread_replies']);
    const answer = await client.getPrompt({ name: 'answer_unread_replies', arguments: {} });
    expect((answer.messages[0]!.content as { text: string }).text).toMatch(/unread=true[\s\S]*mark_inbound_read/);
    const prompt = await client.getPrompt({ name: 'send_to_list_and_report_replies', arguments: { recipients: '0412 345 678', message: 'Hi' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('0412 345 678');
    expect(text).toMatch(/wait for my confirmation/);
    expect(text).toContain('idempotency_key');
    await expect(client.getPrompt({ name: 'send_to_list_and_report_replies', arguments: {} })).rejects.toThrow(/Missing argument recipients, message/);
  });
});
