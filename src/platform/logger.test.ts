import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, lazyChild, unredacted } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(chunk.toString()); done(); } });
  const logger = createLogger('info', stream);
  return { logger, lines: () => lines.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('request loggers', () => {
  it('makes a request\'s child logger only when the request logs through it, with its reqId and redaction', async () => {
    const { logger, lines } = capture();
    let children = 0;
    const child = logger.child.bind(logger);
    logger.child = ((...args: Parameters<typeof child>) => { children += 1; return child(...args); }) as typeof logger.child;
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }),
      childLoggerFactory: lazyChild as unknown as FastifyServerOptions['childLoggerFactory'],
    });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/loud', async (request) => {
      request.log.warn({ to: '+61412345678', id: 'm1' }, 'something to say');
      return { ok: true };
    });
    await app.ready();
    children = 0; // Fastify makes children of its own while it starts
    expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(children).toBe(0);
    expect((await app.inject({ url: '/loud', headers: { 'x-request-id': 'r-1' } })).statusCode).toBe(200);
    expect(children).toBe(1);
    await app.close();
    logger.flush();
    const said = lines().find((l) => l.msg === 'something to say');
    expect(said).toMatchObject({ reqId: expect.any(String), id: 'm1', to: '[redacted]', level: 40 });
  });

  it('writes chosen fields unredacted beside a logger that still redacts', () => {
    const { logger, lines } = capture();
    unredacted(logger).info({ reqId: 'r-2', method: 'POST', url: '/send', status: 201 }, 'request');
    logger.info({ to: '+61412345678' }, 'whole object');
    logger.flush();
    const [line, whole] = lines();
    expect(line).toMatchObject({ service: 'tasman', reqId: 'r-2', method: 'POST', url: '/send', status: 201, msg: 'request' });
    expect(whole).toMatchObject({ to: '[redacted]' });
  });
});
