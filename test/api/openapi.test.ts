import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { CONTRACT_ROUTES } from '../support/contract-routes.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const documentedRoutes = () => CONTRACT_ROUTES;

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document and the browsable docs without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('lists every route of the interface document', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = documentedRoutes().map(([m, p]) => `${m} ${p}`);
    expect(new Set(documented).size).toBe(documented.length);
    expect(documented.length).toBe(38);
    const present = new Set(Object.entries(spec.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    expect(documented.filter((r) => !present.has(r))).toEqual([]);
  });

  it('declares a response schema for every documented operation', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
    for (const [method, path] of documentedRoutes()) {
      const op = spec.paths[path]?.[method.toLowerCase()];
      const success = Object.keys(op?.responses ?? {}).filter((code) => code.startsWith('2'));
      expect(success, `${method} ${path}`).not.toEqual([]);
    }
  });

  it('calls no query parameter with a default required (a client may leave it out), and still requires the others', async () => {
    type Param = { name: string; in: string; required?: boolean; schema?: { default?: unknown } };
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { parameters?: Param[] }>> };
    const query = Object.entries(spec.paths).flatMap(([path, ops]) => Object.entries(ops).flatMap(([method, op]) =>
      (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ at: `${method} ${path} ${p.name}`, ...p }))));
    expect(query.filter((p) => p.required && p.schema?.default !== undefined).map((p) => p.at)).toEqual([]);
    expect(query.find((p) => p.at === 'get /admin/accounts limit')).toMatchObject({ required: false });
    // Path parameters stay required.
    expect(spec.paths['/campaign/{id}']?.get?.parameters?.find((p) => p.in === 'path')).toMatchObject({ required: true });
  });

  it('describes every webhook event in its webhooks section, with every signature header', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      webhooks: Record<string, { post: { parameters: Array<{ name: string }>; requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }>;
    };
    expect(Object.keys(spec.webhooks).sort()).toEqual(['message.click', 'message.dlr', 'message.inbound']);
    for (const event of Object.values(spec.webhooks)) {
      expect(event.post.parameters.map((p) => p.name)).toEqual(expect.arrayContaining([
        'X-Service-Event', 'X-Service-Delivery', 'X-Service-Signature', 'X-Texto-Event', 'X-Texto-Delivery', 'X-Texto-Signature',
        'webhook-id', 'webhook-timestamp', 'webhook-signature',
      ]));
    }
    const dlr = spec.webhooks['message.dlr']!.post.requestBody.content['application/json']!.schema;
    expect(Object.keys(dlr.properties).sort()).toEqual(['delivery_receipt', 'intermediate_receipt', 'links', 'message']);
    const inbound = spec.webhooks['message.inbound']!.post.requestBody.content['application/json']!.schema;
    expect(Object.keys(inbound.properties)).toEqual(expect.arrayContaining(['event', 'message_id', 'from', 'to', 'body', 'received_at', 'in_reply_to', 'is_optout']));
    const click = spec.webhooks['message.click']!.post.requestBody.content['application/json']!.schema;
    expect(Object.keys(click.properties).sort()).toEqual(['clicked_at', 'clicks', 'event', 'first_clicked_at', 'message_id', 'metadata', 'recipient', 'short_url', 'url']);
  });
});
