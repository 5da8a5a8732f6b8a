// A request body that never finishes is cut off by the server's request timeout (HTTP_REQUEST_TIMEOUT), and its
// API key's concurrency slot is free again at once: clients that stall cannot hold a key's slots.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
let port = 0;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_CONCURRENCY: '3', HTTP_REQUEST_TIMEOUT: '2' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => { await t.close(); });

/** Sends the headers and half the body of a /send, then nothing more; `answer` is all the server sent until it closed. */
function stalledSend(apiKey: string) {
  const socket = connect(port, '127.0.0.1');
  const body = JSON.stringify({ to: mobile(), message: 'never finished' });
  socket.write(`POST /send HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  let text = '';
  socket.on('data', (chunk) => { text += chunk.toString(); });
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  return { socket, answer, answeredYet: () => text !== '' };
}

const balance = (apiKey: string) => fetch(`http://127.0.0.1:${port}/balance`, { headers: { authorization: `Bearer ${apiKey}` } });

/**
 * Stalled requests holding every one of the key's three slots. A stall that met a slot held for a moment by this
 * check's own request was refused at once (it has an answer): it is replaced until a check finds no slot free.
 */
async function holdEverySlot(apiKey: string) {
  const stalls = [stalledSend(apiKey), stalledSend(apiKey), stalledSend(apiKey)];
  const refused = await pollUntil(async () => {
    stalls.forEach((s, i) => {
      if (s.answeredYet()) { s.socket.destroy(); stalls[i] = stalledSend(apiKey); }
    });
    return balance(apiKey);
  }, (r) => r.status === 429, 'the stalled requests to hold every slot', 10_000);
  expect((await refused.json()).code).toBe('concurrency_limited');
  return stalls;
}

it('three bodies that never finish hold the key\'s three slots only until the request timeout', async () => {
  const acct = await createAccount(t.app, { credits: 5 });
  const stalls = await holdEverySlot(acct.apiKey);
  const started = Date.now();
  const answers = await Promise.all(stalls.map((s) => s.answer));
  for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/);
  // Cut off after the timeout (2 s; node checks every second), well before the 60 s a slot's lease would last.
  expect(Date.now() - started).toBeLessThan(10_000);
  const after = await balance(acct.apiKey);
  expect(after.status).toBe(200);
  expect(await after.json()).toEqual({ credits: 5 });
});

it('a client that goes away mid-body frees its slot at once', async () => {
  const acct = await createAccount(t.app, { credits: 5 });
  const stalls = await holdEverySlot(acct.apiKey);
  for (const s of stalls) s.socket.destroy();
  await pollUntil(() => balance(acct.apiKey), (r) => r.status === 200, 'the slots to be free', 1_500);
});
