import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../src/platform/logger.ts';
import { registerErrorHandling } from '../../src/platform/http/errors.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(chunk.toString()); done(); } });
  return { logger: createLogger('info', stream), text: () => lines.join('') };
}

// What a customer sent: none of it may reach an error log.
const secrets = {
  phone: '+61412345678', body: 'Your PIN is 4711 secret-body', url: 'https://user:hunter2@hooks.example.com/in',
  hash: 'a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
};

describe('error logs', () => {
  it('a 500 from a failed query logs its SQLSTATE and frames, never the values bound to it', async () => {
    let failure: unknown;
    try {
      await t.services.db.execute(sql`select ${secrets.phone}::text, ${secrets.body}::text, ${secrets.url}::text, ${secrets.hash}::text, 1 / ${0}::int`);
    } catch (err) { failure = err; }
    expect(String((failure as Error).message)).toContain(secrets.phone);
    const { logger, text } = capture();
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    registerErrorHandling(app);
    app.get('/boom', async () => { throw failure; });
    app.get('/crash', async () => { throw new Error(`posting to ${secrets.url} for ${secrets.phone} failed`); });
    expect((await app.inject({ url: '/boom?to=%2B61499999999' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/crash' })).statusCode).toBe(500);
    await app.close();
    const out = text();
    expect(out).toContain('request failed');
    expect(out).toContain('22012');
    for (const value of [...Object.values(secrets), '4711', 'hunter2', '+61499999999']) expect(out).not.toContain(value);
  });

  it('objects logged whole lose numbers, bodies, webhook URLs and key hashes', () => {
    const { logger, text } = capture();
    logger.warn({ id: 'x', from: secrets.phone, to: secrets.phone, text: secrets.body, webhook_url: secrets.url, key_hash: secrets.hash, params: [secrets.phone] }, 'inbound');
    logger.flush();
    const out = text();
    expect(out).toContain('"id":"x"');
    for (const value of Object.values(secrets)) expect(out).not.toContain(value);
  });
});
