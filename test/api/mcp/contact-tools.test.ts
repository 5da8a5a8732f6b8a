import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { call, createAccount, mobile, type TestAccount } from '../../support/factories.ts';
import { callTool, connectMcp, ok, refusal, type McpTransportKind } from '../../support/mcp-clients.ts';

// The address book over MCP, on both transports: contacts and templates found, a list sent to with each contact's
// fields merged, under the per-call credit cap (worked out from the list, since the arguments do not name the
// recipients) and with an idempotency_key that replays instead of sending twice.

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ MCP_MAX_CREDITS_PER_CALL: '3' });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => { await t.close(); });

describe.each<McpTransportKind>(['http', 'stdio'])('MCP contact tools over %s', (kind) => {
  let owner: TestAccount;
  let client: Client;
  beforeAll(async () => {
    owner = await createAccount(t.app, { credits: 50 });
    client = await connectMcp(kind, baseUrl, owner.apiKey, { MCP_MAX_CREDITS_PER_CALL: '3' });
  });
  afterAll(async () => { await client.close(); });

  async function listOf(names: string[]): Promise<string> {
    const list = await call(t.app, owner.apiKey, 'POST', '/lists', { name: `List ${names.join(' ')}` });
    for (const name of names) await call(t.app, owner.apiKey, 'POST', '/contacts', { phone: mobile(), first_name: name, lists: [list.body.id] });
    return list.body.id as string;
  }

  it('lists contacts (searched, by list) and templates', async () => {
    const listId = await listOf(['Mereana', 'Tomasz']);
    const found = ok(await callTool(client, 'list_contacts', { q: 'merea' }));
    expect((found.contacts as Array<Record<string, unknown>>).map((c) => c.first_name)).toEqual(['Mereana']);
    const members = ok(await callTool(client, 'list_contacts', { list_id: listId }));
    expect(members).toMatchObject({ contacts: [{ first_name: 'Mereana', lists: [listId] }, { first_name: 'Tomasz' }], next_cursor: null });
    await call(t.app, owner.apiKey, 'POST', '/templates', { name: 'Reminder', body: 'Hi {{first_name}}, see you soon' });
    expect(ok(await callTool(client, 'list_templates')).templates).toContainEqual(expect.objectContaining({ name: 'Reminder', body: 'Hi {{first_name}}, see you soon' }));
  });

  it('sends to a list with each contact\'s fields, and a repeated idempotency_key replays the first answer', async () => {
    const listId = await listOf(['Ana', 'Ben']);
    const args = { list_id: listId, message: 'Hi {{first_name}}', idempotency_key: `list-${kind}-${listId}` };
    const sent = ok(await callTool(client, 'send_to_list', args));
    expect(sent).toMatchObject({ recipients_queued: 2, credits_used: 2 });
    expect(ok(await callTool(client, 'send_to_list', args))).toEqual(sent);
    const campaign = await call(t.app, owner.apiKey, 'GET', `/campaign/${sent.campaign_id as string}`);
    expect((campaign.body.messages as Array<{ body: string }>).map((m) => m.body).sort()).toEqual(['Hi Ana', 'Hi Ben']);
  });

  it('refuses a list that would cost more than MCP_MAX_CREDITS_PER_CALL, before spending anything', async () => {
    const listId = await listOf(['A', 'B', 'C', 'D']);
    const before = (await call(t.app, owner.apiKey, 'GET', '/balance')).body.credits;
    const refused = refusal(await callTool(client, 'send_to_list', { list_id: listId, message: 'Sale today' }));
    expect(refused).toMatchObject({ code: 'credit_limit_exceeded', credits_required: 4, max_credits_per_call: 3 });
    expect((await call(t.app, owner.apiKey, 'GET', '/balance')).body.credits).toBe(before);
    // An opted-out contact costs nothing, so the same list is then within the cap.
    const first = ok(await callTool(client, 'list_contacts', { list_id: listId })).contacts as Array<{ phone: string }>;
    await call(t.app, owner.apiKey, 'POST', '/optouts', { number: first[0]!.phone });
    expect(ok(await callTool(client, 'send_to_list', { list_id: listId, message: 'Sale today' }))).toMatchObject({ recipients_queued: 3, opted_out_count: 1 });
  });

  it('refuses another account\'s list as not found', async () => {
    const other = await createAccount(t.app);
    const list = await call(t.app, other.apiKey, 'POST', '/lists', { name: 'Theirs' });
    expect(refusal(await callTool(client, 'send_to_list', { list_id: list.body.id, message: 'hi' })).code).toBe('not_found');
  });
});
