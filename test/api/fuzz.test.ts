import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminAuth, bearer, call, createAccount } from '../support/factories.ts';

// Every route of the OpenAPI document, walked with hostile values: whatever the input, the answer is never a 5xx
// and no balance moves. Driven by /openapi.json, so a route added anywhere is covered without touching this file.

interface Schema {
  type?: string | string[]; format?: string; pattern?: string; default?: unknown; enum?: unknown[]; const?: unknown;
  minimum?: number; minLength?: number; properties?: Record<string, Schema>; required?: string[]; items?: Schema;
  anyOf?: Schema[]; oneOf?: Schema[];
}
interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Array<Record<string, unknown>>;
}
type Spec = { paths: Record<string, Record<string, Operation>> };

/** Values by field name where the type alone says too little (numbers, ABNs). */
const byName: Record<string, unknown> = {
  to: '+61412345678', phone: '+61412345678', number: '+61412345678', numbers: ['+61412345678'], sender: 'FUZZCO', from: '+61412345678',
  abn: '51824753556', sender_id: 'FUZZCO', country: 'AU', message: 'hello', text: 'hello', email: 'fuzz@example.com',
};

/** A plausible valid value for a schema, so that one hostile field among valid ones reaches the deeper layers. */
function example(schema: Schema | undefined, name: string, id: string): unknown {
  if (!schema) return 'x';
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branch = schema.anyOf ?? schema.oneOf;
  if (branch) return example(branch.find((b) => b.type !== 'null') ?? branch[0], name, id);
  if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
  if (schema.format === 'date') return '2026-01-01';
  if (schema.format === 'uuid') return id;
  if (schema.format === 'email') return 'fuzz@example.com';
  if (schema.format === 'uri') return 'https://example.com/hook';
  if (schema.pattern?.includes('\\d{4}-\\d{2}-\\d{2}')) return '2026-01-01';
  if (name in byName) return byName[name];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [example(schema.items, name, id)];
  if (type === 'object') {
    return Object.fromEntries((schema.required ?? []).map((k) => [k, example(schema.properties?.[k], k, id)]));
  }
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
/** JSON texts for one body field: what broke the server before (NUL, lone surrogates, numbers past every range). */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"x\\udfff"', '"\\udbff\\udfff\\ud800"', '""', '"   \\t "', `"${'x'.repeat(5000)}"`,
      '1e309', '-1e309', '99999999999999999999', '-99999999999999999999', '9007199254740993', '2147483648', '-1', '0', '0.5',
      'null', 'true', '[]', '{}', '[null]', '"1e309"', '"2026-02-30"', '"00000000-0000-0000-0000-000000000000"', '"+61"',
      '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', deep(2000), `"${'🙂'.repeat(300)}"`,
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }).map((s) => JSON.stringify(s)) },
);
/** Query and path values as sent on the wire (already percent-encoded). */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%FF', '%C0%80', '99999999999999999999', '1e309', '-1e309', 'Infinity',
      'NaN', '-1', '0', '', '2026-02-30', '2026-02-30T25%3A00%3A00Z', 'x'.repeat(3000), '00000000-0000-0000-0000-000000000000', 'true',
      '__proto__', '%27%3B%20drop%20table%20accounts%3B--'),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent) },
);
/** Whole bodies that are not an object of fields. */
const hostileBody = fc.constantFrom(deep(150_000), `{"a":${deep(150_000)}}`, '[]', '"x"', '1e309', 'null', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}');

let t: TestApp;
let spec: Spec;
beforeAll(async () => {
  t = await createTestApp();
  spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Spec;
});
afterAll(async () => { await t.close(); });

async function balances(ids: string[]): Promise<string> {
  const found = await rows<{ id: string; credits: number }>(t.services.db, sql`select id, credits from accounts where id in ${sql.raw(`('${ids.join("','")}')`)} order by id`);
  return JSON.stringify(found);
}

function operations(): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(spec.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

type Slot = { in: 'path' | 'query' | 'body' | 'whole'; name: string };

describe('hostile input on every route of /openapi.json', () => {
  it('is never answered with a 5xx, and a refusal never moves a balance', async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let keys = 0;
    for (const { method, path, op } of ops) {
      // A fresh family per route: a parent with credits (so sends reach the database) and a sub-account.
      const victim = await createAccount(t.app, { credits: 100, hierarchy: true });
      const sub = await call(t.app, victim.apiKey, 'POST', '/accounts', { business_name: 'Fuzz Sub', email: 'sub@example.com' });
      const ids = [victim.accountId, sub.body.account_id as string];
      const params = op.parameters ?? [];
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const base = example(bodySchema, '', victim.accountId) as Record<string, unknown> | undefined;
      const queryBase = Object.fromEntries(params.filter((p) => p.in === 'query')
        .map((p) => [p.name, encodeURIComponent(String(example(p.schema, p.name, victim.accountId)))]));
      // Every place a value can go; each request makes exactly one of them hostile and keeps the others valid, so
      // the hostile value is what the route has to handle.
      const slots: Slot[] = [
        ...params.filter((p) => p.in === 'path' || p.in === 'query').map((p) => ({ in: p.in as 'path' | 'query', name: p.name })),
        { in: 'query', name: 'offset' }, { in: 'query', name: 'limit' },
        ...(bodySchema ? [...Object.keys(bodySchema.properties ?? {}), '__proto__', 'constructor'].map((name) => ({ in: 'body' as const, name })) : []),
        { in: 'whole', name: '' },
      ];
      const input = fc.oneof(...slots.map((slot) => (slot.in === 'body' ? hostileJson : slot.in === 'whole' ? hostileBody : hostileText)
        .map((value) => ({ slot, value }))), fc.constantFrom(...ids).map((id) => ({ slot: { in: 'path', name: '*' } as Slot, value: id })));
      let before = await balances(ids);
      await fc.assert(fc.asyncProperty(input, async ({ slot, value }) => {
        const pathValue = (name: string) => (slot.in === 'path' && (slot.name === name || slot.name === '*') ? value : ids[0]!);
        const query = { ...queryBase, ...(slot.in === 'query' ? { [slot.name]: value } : {}) };
        const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => pathValue(name))
          + (Object.keys(query).length ? `?${Object.entries(query).map(([k, v]) => `${k}=${v}`).join('&')}` : '');
        let body: string | undefined = base === undefined ? undefined : JSON.stringify(base);
        if (slot.in === 'whole') body = value;
        if (slot.in === 'body') {
          const kept = Object.entries(base ?? {}).filter(([k]) => k !== slot.name).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
          body = `{${[...kept, `${JSON.stringify(slot.name)}:${value}`].join(',')}}`;
        }
        const res = await t.app.inject({
          method: method as 'GET', url,
          headers: {
            ...(JSON.stringify(op.security ?? []).includes('adminToken') ? adminAuth : bearer(victim.apiKey)),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(method === 'POST' ? { 'idempotency-key': `fuzz-${keys++}` } : {}),
          },
          ...(body !== undefined ? { payload: body } : {}),
        });
        const what = `${method} ${url.slice(0, 150)} ${String(body).slice(0, 150)} → ${res.statusCode} ${res.body.slice(0, 150)}`;
        // 503 service_unavailable names a dependency that is down (here: no ESME bound to the built-in SMSC, as
        // this app runs no workers), not a defect; every other 5xx is one.
        const dependencyDown = res.statusCode === 503 && res.json<{ code?: string }>().code === 'service_unavailable';
        if (res.statusCode >= 500 && !dependencyDown) failures.push(what);
        // A refusal commits nothing. Some hostile values are valid input (a campaign name in any script): what a
        // success did is the new baseline.
        if (method !== 'GET') {
          const after = await balances(ids);
          if (res.statusCode >= 300 && after !== before) failures.push(`balance moved: ${what}`);
          before = after;
        }
      }), { numRuns: Math.min(40, 4 * slots.length) });
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
