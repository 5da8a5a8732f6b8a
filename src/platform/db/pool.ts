import pg from 'pg';
import { isDatabaseUnavailable } from './sql-state.ts';
import { isReadOnly, type WriterChoice } from './writer.ts';

type Release = (err?: Error | boolean) => void;

/**
 * The connection pool, made to survive its connections being reset (57P01 from pg_terminate_backend, a failover
 * or a pooler restart; ECONNRESET; 57P02/57P03; class 08):
 *
 * - Every client has an 'error' listener for its whole life. pg-pool listens only while a client is idle, so a
 *   connection that broke while checked out (between the statements of a transaction, say) raised an unhandled
 *   'error' event and the process exited.
 * - A checked-out client whose connection breaks is released at once with the error: pg-pool destroys it (never
 *   returns it to the pool) and its slot is free even if its holder never releases it (drizzle's `transaction`
 *   does not when its BEGIN fails). The holder's own release later is a no-op.
 * - A client that saw a connection-class error on a statement (the FATAL reached the statement before the socket
 *   closed) is destroyed when released, not handed to the next caller.
 *
 * What the holder was doing fails with the error; retrying it is the holder's business (batchers retry, worker
 * loops claim again, leases hand claimed rows back, the API answers 503).
 *
 * With `writer` (a host list: writer.ts) every new connection goes to the host chosen as writable and is checked
 * to be writable before use; a connection error or a read-only error calls the choice into doubt, and a client
 * made before the writer moved is destroyed instead of reused.
 */
export class ResilientPool extends pg.Pool {
  /** The connection-class error a client saw, if any: it is destroyed when released. */
  readonly #broken = new WeakMap<pg.PoolClient, Error>();
  readonly #writer: WriterChoice | null;

  constructor(config: pg.PoolConfig, writer: WriterChoice | null = null) {
    super(writer ? { ...config, Client: routedClient(writer), onConnect: refuseReadOnly(writer) } : config);
    this.#writer = writer;
    // An idle client's error: pg-pool has removed the client already; only the writer may have moved.
    this.on('error', () => writer?.invalidate());
    // pool.query's statements (callback form, not watched below) release their client with the error.
    this.on('release', (err: Error | undefined) => { if (err && isDatabaseUnavailable(err)) writer?.invalidate(); });
    this.on('connect', (client) => {
      const lost = (err: Error) => {
        this.#broken.set(client as pg.PoolClient, err);
        this.#writer?.invalidate();
      };
      client.on('error', lost);
      watchQueries(client as pg.PoolClient, lost);
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: Release) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: Release) => void): Promise<pg.PoolClient> | void {
    const writer = this.#writer;
    if (callback) {
      // The callback form is pool.query's, which releases with the error itself.
      if (!writer) return super.connect(callback);
      writer.ready().then(() => super.connect((err, client, done) => {
        if (!err && client && writer.outdated(client)) { done(new Error('the writable database moved')); this.connect(callback); return; }
        callback(err, client, done);
      }), (err: Error) => callback(err, undefined, () => {}));
      return;
    }
    return this.#checkOut();
  }

  async #checkOut(): Promise<pg.PoolClient> {
    for (;;) {
      await this.#writer?.ready();
      const client = await super.connect();
      // Made for a writer that has since moved (it points at a standby now, or at nothing): never reused.
      if (this.#writer?.outdated(client)) { client.release(new Error('the writable database moved')); continue; }
      return this.#checkedOut(client);
    }
  }

  #checkedOut(client: pg.PoolClient): pg.PoolClient {
    const release = client.release as Release;
    let released = false;
    const done: Release = (err) => {
      if (released) return;
      released = true;
      client.removeListener('error', onError);
      release(err || this.#broken.get(client));
    };
    const onError = (err: Error) => done(err);
    client.on('error', onError);
    client.release = done;
    return client;
  }
}

/** A pg.Client class whose every instance connects to the host the writer choice names now. */
function routedClient(writer: WriterChoice): typeof pg.Client {
  return class RoutedClient extends pg.Client {
    constructor(config: pg.ClientConfig) {
      super({ ...config, connectionString: writer.url() });
      writer.tag(this);
    }
  };
}

/** pg-pool's onConnect: a new connection to a read-only server (a standby) fails, and the writer is chosen again. */
function refuseReadOnly(writer: WriterChoice) {
  return async (client: pg.ClientBase): Promise<void> => {
    if (!(await isReadOnly(client))) return;
    writer.invalidate();
    throw Object.assign(new Error('the database server is read-only (a standby): choosing the writable one again'), { code: 'NO_WRITER' });
  };
}

/** Calls `onLost` when a statement on `client` fails because the connection or the server's role went. */
function watchQueries(client: pg.PoolClient, onLost: (err: Error) => void): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, (err: Error) => { if (isDatabaseUnavailable(err)) onLost(err); });
    }
    return result;
  };
}
