// The dashboard's typed API client is generated from the OpenAPI document (scripts/api-schema.ts): the committed
// types must be what the app's schemas make today, and the document they are made from, built without a server or
// a database, must be the one the running app serves.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPI3 } from 'openapi-typescript';
import { apiSchemaText, openapiDocument, SCHEMA_PATH } from '../../scripts/api-schema.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let offline: OpenAPI3;
beforeAll(async () => { [t, offline] = await Promise.all([createTestApp(), openapiDocument()]); });
afterAll(async () => { await t.close(); });

describe('the dashboard\'s API types', () => {
  it('come from the document the app serves', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenAPI3;
    expect(Object.keys(offline.paths ?? {}).length).toBeGreaterThan(50);
    expect(offline.paths).toEqual(served.paths);
    expect(offline.components).toEqual(served.components);
  });

  it('are current: web/src/lib/api-schema.d.ts is what `npm run gen:api` writes', async () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8'), 'run npm run gen:api and commit web/src/lib/api-schema.d.ts').toBe(await apiSchemaText(offline));
  });
});
