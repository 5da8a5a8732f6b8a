import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors.ts';

// What a failed query looks like here: Drizzle's error, the driver's (with its SQLSTATE) as the cause.
const failedQuery = (code: string) => Object.assign(new Error('Failed query: insert …'), { cause: Object.assign(new Error('x'), { code }) });

async function answerTo(err: Error) {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  app.get('/', async () => { throw err; });
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { status: res.statusCode, body: res.json() as { code: string }, retryAfter: res.headers['retry-after'] };
}

describe('database failures as answers', () => {
  it('a deadlock or serialization failure is 503 with Retry-After: nothing was applied, the same request can be retried', async () => {
    for (const code of ['40P01', '40001']) {
      expect(await answerTo(failedQuery(code)), code).toMatchObject({ status: 503, body: { code: 'service_unavailable' }, retryAfter: '1' });
    }
  });

  it('a reset connection is 503; a unique violation 409; anything unknown 500', async () => {
    expect(await answerTo(failedQuery('57P01'))).toMatchObject({ status: 503, body: { code: 'service_unavailable' } });
    expect(await answerTo(failedQuery('23505'))).toMatchObject({ status: 409, body: { code: 'conflict' } });
    expect(await answerTo(new Error('boom'))).toMatchObject({ status: 500, body: { code: 'internal_error' } });
  });
});
