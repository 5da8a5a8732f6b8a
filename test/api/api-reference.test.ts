// The API reference (/docs, /openapi.json) as a product, checked off the route registry so a new route is held to it
// without editing a list: every operation is described and grouped, every field of its parameters, body and
// responses is described, and an operation that takes or answers a JSON body shows an example of each. The examples
// live in the routes' contracts (config.contract: `sample.body`, `response`); here the request example must satisfy
// the body schema and be accepted by the app, and the response example must satisfy the schema of its status.
import { afterAll, describe, expect, it } from 'vitest';
import { successStatus } from '../../src/platform/http/openapi.ts';
import { routesOf, type RouteEntry } from '../../src/platform/http/route-registry.ts';
import { validatorCompiler } from '../../src/platform/http/validation.ts';
import { createTestApp } from '../support/app.ts';
import { adminAuth, bearer, createAccount } from '../support/factories.ts';
import { furnishedFamily } from '../support/hierarchy-routes.ts';

// The examples' webhook URLs name public hosts the test machine may not resolve: addresses are not checked here.
const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
afterAll(async () => { await t.close(); });

interface Schema {
  description?: string;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Media { schema?: Schema; example?: unknown; examples?: unknown }
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; description?: string }>;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
interface Document { tags?: Array<{ name: string; description?: string }>; paths: Record<string, Record<string, Operation>> }

const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
const routes = routesOf(t.app);
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const operationOf = (r: RouteEntry) => doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()];

/** The fields of `schema` (at `at`) without a description, at any depth: objects, arrays, unions, records. */
function undescribed(schema: Schema | undefined, at: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const nested = [
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((s) => undescribed(s, at)),
    ...undescribed(schema.items, `${at}[]`),
    ...Object.values(schema.patternProperties ?? {}).flatMap((s) => undescribed(s, `${at}{}`)),
    ...(typeof schema.additionalProperties === 'object' ? undescribed(schema.additionalProperties, `${at}{}`) : []),
  ];
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, field]) => [
    ...(field.description?.trim() ? [] : [`${at}.${name}`]),
    ...undescribed(field, `${at}.${name}`),
  ]);
  return [...own, ...nested];
}

/** Keys of `value` that `schema` does not declare (a response example may show only fields the schema has). */
function undeclared(value: unknown, schema: Schema | undefined, at: string): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length > 0) {
    const fits = branches.map((b) => undeclared(value, b, at));
    return fits.find((f) => f.length === 0) ?? fits.reduce((a, b) => (a.length <= b.length ? a : b));
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => undeclared(v, schema.items, `${at}[${i}]`));
  const open = schema.patternProperties ?? (typeof schema.additionalProperties === 'object' ? { any: schema.additionalProperties } : null);
  return Object.entries(value).flatMap(([name, v]) => {
    const field = schema.properties?.[name] ?? (open ? Object.values(open)[0] : undefined);
    if (!field) return schema.additionalProperties === true ? [] : [`${at}.${name}`];
    return undeclared(v, field, `${at}.${name}`);
  });
}

const json = (media: Record<string, Media> | undefined) => media?.['application/json'];

describe('the API reference', () => {
  it('declares its groups, each with a description', () => {
    expect(doc.tags?.length).toBeGreaterThan(5);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
  });

  it('describes every operation, and groups it under a declared tag', () => {
    const declared = new Set((doc.tags ?? []).map((tag) => tag.name));
    const faults: string[] = [];
    for (const r of routes) {
      const op = operationOf(r);
      if (!op) { faults.push(`${key(r)}: not in the document`); continue; }
      if (!op.summary?.trim()) faults.push(`${key(r)}: no summary`);
      // A description teaches more than the summary: what happens, who may call it, what it costs.
      if (!op.description || op.description.length < 60 || op.description === op.summary) faults.push(`${key(r)}: no description beyond the summary`);
      if (!op.tags?.length) faults.push(`${key(r)}: no tag`);
      for (const tag of op.tags ?? []) if (!declared.has(tag)) faults.push(`${key(r)}: tag "${tag}" is not declared (src/platform/http/openapi.ts)`);
    }
    expect(faults).toEqual([]);
  });

  it('describes every field of every parameter, request body and response', () => {
    const faults: string[] = [];
    for (const r of routes) {
      const op = operationOf(r);
      if (!op) continue;
      for (const p of op.parameters ?? []) if (!p.description?.trim()) faults.push(`${key(r)} ${p.in} ${p.name}`);
      for (const field of undescribed(json(op.requestBody?.content)?.schema, 'body')) faults.push(`${key(r)} ${field}`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const field of undescribed(json(response.content)?.schema, status)) faults.push(`${key(r)} ${field}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('shows a request and a response example on every operation that takes or answers a JSON body', () => {
    const faults: string[] = [];
    for (const r of routes) {
      const op = operationOf(r);
      if (!op) continue;
      const body = json(op.requestBody?.content);
      if (body && body.example === undefined) faults.push(`${key(r)}: no request example (config.contract.sample.body)`);
      const status = successStatus(op.responses);
      const answer = status ? json(op.responses?.[status]?.content) : undefined;
      if (answer && answer.example === undefined) faults.push(`${key(r)}: no ${status} response example (config.contract.response)`);
    }
    expect(faults).toEqual([]);
  });

  it('gives response examples that the schema of their status accepts, with no field it does not declare', () => {
    for (const r of routes.filter((x) => x.contract.response !== undefined)) {
      const status = successStatus(r.response as Record<string, unknown> | undefined);
      expect(status, `${key(r)}: a response example, but no 2xx response schema`).toBeDefined();
      const schema = r.response![Number(status)] as object;
      const validate = validatorCompiler({ schema, method: r.method, url: r.url, httpPart: 'body' }) as ((data: unknown) => boolean) & { errors?: unknown };
      const example = structuredClone(r.contract.response);
      expect(validate(example) ? null : validate.errors, `${key(r)}: its response example does not fit its ${status} schema`).toBeNull();
      expect(undeclared(r.contract.response, schema as Schema, 'response'), key(r)).toEqual([]);
    }
  });

  it('gives request examples that the app accepts (no 400), sent with the credentials the route needs', async () => {
    // Keyed routes run as a parent with hierarchy and a furnished sub-account, whose ids fill `/account/:id…`; the
    // operator's routes on one account get an account of their own. Other ids are well-formed and unknown: a 404
    // is an answer to the id, not to the example.
    const { parent, target } = await furnishedFamily(t.app);
    const operated = await createAccount(t.app, { credits: 10 });
    const unknown = '01938f99-0000-7000-8000-000000000000';
    const fill = (r: RouteEntry) => r.url
      .replace(/^\/account\/:id/, `/account/${target.id}`).replace(/^\/admin\/accounts\/:id/, `/admin/accounts/${operated.accountId}`)
      .replace(':keyId', target.keyId).replace(':memberId', target.memberId).replace(/:[A-Za-z]+/g, unknown);
    const refused: string[] = [];
    for (const r of routes.filter((x) => x.contract.sample?.body)) {
      const headers = r.auth === 'api_key' ? bearer(parent.apiKey) : r.auth === 'admin' ? adminAuth : {};
      const res = await t.app.inject({ method: r.method as 'POST', url: fill(r), headers, payload: r.contract.sample!.body! });
      if (res.statusCode === 400) refused.push(`${key(r)}: ${res.body}`);
    }
    expect(refused).toEqual([]);
  });
});
