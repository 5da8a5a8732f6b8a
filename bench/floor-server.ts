// The floor of Tasman's stack: the least work any Node.js + Fastify + PostgreSQL service can do for one durable
// /send with a delivery callback, none of Tasman's own. FLOOR_PROCESSES (2) cluster children on one port each
// answer POST /send by parsing the JSON body and group-committing it with Tasman's own batcher (createBatcher, two
// statements in flight): requests that arrive while an INSERT is in flight go together in the next one (one multi-row INSERT of id, account, recipient and body into a table with a
// primary key alone, autocommitted), and each is answered with its id after that commit. Right after the commit
// the child POSTs `{"message":{"id":…}}` to FLOOR_CALLBACK_URL for each message, as a delivery webhook would.
// What it leaves out, and Tasman must do: authentication, validation, phone numbers, balances, ledger, sender and
// opt-out checks, the SMPP submit and its receipt, the message's state changes, the webhook outbox, its
// signatures and retries. So its rate is an upper bound for Tasman on the same machine (bench/floor.ts).
// FLOOR_SMPP=host:port adds the least a gateway must do beyond that: each child binds once to that SMSC (Tasman's
// own SMPP client, window 100), submits each message after its commit, and on its receipt group-commits one
// UPDATE of the message's status (deliver_sm_resp after that commit), then makes the callback. Still left out:
// recording the submit, balances, the outbox and everything above.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { Pool } from 'undici';
import { createBatcher } from '../src/platform/jobs/batcher.ts';
import { createSmppClient } from '../src/carrier/smpp/client.ts';
import { normaliseMessageId, parseReceipt } from '../src/carrier/smpp/receipt.ts';
import type { ShortMessagePdu } from '../src/carrier/smpp/pdu-types.ts';

const processes = Number(process.env.FLOOR_PROCESSES ?? 2);
if (cluster.isPrimary) {
  const setup = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await setup.connect();
  await setup.query('drop table if exists floor_messages');
  await setup.query('create table floor_messages (id uuid primary key, account text not null, recipient text not null, body text not null, status text not null default \'queued\', created_at timestamptz not null default now())');
  await setup.end();
  let listening = 0;
  for (let i = 0; i < processes; i += 1) {
    cluster.fork().on('message', (m: { port?: number }) => {
      if (m.port && ++listening === processes) process.stdout.write(`${JSON.stringify({ msg: 'floor started', url: `http://127.0.0.1:${m.port}` })}\n`);
    });
  }
  process.on('SIGTERM', () => { for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM'); process.exit(0); });
} else {
  // Connections stay open for the run (no idle timeout): a backend that closes mid-round takes its CPU out of the
  // floor's count and the bench's, and reconnecting is work the floor would not do under steady load.
  const db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4, idleTimeoutMillis: 0 });
  const callbacks = new Pool(process.env.FLOOR_CALLBACK_URL!, { connections: 64 });
  type Waiting = { id: string; account: string; to: string; body: string };
  const callback = (id: string) => {
    void callbacks.request({ method: 'POST', path: '/floor', body: `{"message":{"id":"${id}"}}`, headers: { 'content-type': 'application/json' } })
      .then((res) => res.body.dump(), () => {});
  };
  const smpp = process.env.FLOOR_SMPP ? receiptPath(process.env.FLOOR_SMPP) : null;
  const accepted = smpp ? smpp.submit : (w: Waiting) => callback(w.id);
  const inserts = createBatcher<Waiting, null>({
    maxSize: 1000, maxConcurrent: 2,
    run: async (batch) => {
      await db.query('insert into floor_messages (id, account, recipient, body) select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[])',
        [batch.map((w) => w.id), batch.map((w) => w.account), batch.map((w) => w.to), batch.map((w) => w.body)]);
      return batch.map(() => null);
    },
  });
  const app = Fastify({ logger: false });
  app.post('/send', async (request, reply) => {
    const body = request.body as { to: string; message: string };
    const w = { id: randomUUID(), account: request.headers.authorization ?? '', to: body.to, body: body.message };
    try {
      await inserts.submit(w);
    } catch (err) {
      return reply.code(500).send({ error: (err as Error).message });
    }
    void reply.send({ message_id: w.id });
    accepted(w);
    return reply;
  });
  if (smpp) await smpp.client.start(10_000);
  await app.listen({ port: Number(process.env.FLOOR_PORT ?? 0), host: '127.0.0.1' });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('SIGTERM', () => { void app.close().then(() => db.end()).then(() => process.exit(0)); });

  /** The SMPP leg: submit after the accept, one group-committed UPDATE per batch of receipts, then the callback. */
  function receiptPath(hostPort: string) {
    const [host, port] = hostPort.split(':');
    const idBySmsc = new Map<string, string>();
    const early = new Map<string, () => void>();
    const receipts = createBatcher<string, null>({
      maxSize: 1000, maxConcurrent: 1,
      run: async (ids) => {
        await db.query("update floor_messages set status = 'delivered' where id = any($1::uuid[])", [ids]);
        return ids.map(() => null);
      },
    });
    const client = createSmppClient({
      host: host!, port: Number(port), systemId: 'floor', password: 'floor', window: 100, tps: 0,
      onDeliver: (pdu: ShortMessagePdu) => new Promise<void>((settle) => {
        const smscId = parseReceipt(pdu)?.smscMessageId;
        if (!smscId) { settle(); return; }
        const take = () => {
          const id = idBySmsc.get(smscId)!;
          idBySmsc.delete(smscId);
          // A failed write leaves the receipt unacknowledged (the SMSC would send it again), as Tasman does.
          receipts.submit(id).then(() => { settle(); callback(id); }, () => {});
        };
        if (idBySmsc.has(smscId)) take(); else early.set(smscId, take);
      }),
    });
    const submit = (w: Waiting) => {
      void client.submit({
        serviceType: '', sourceAddrTon: 1, sourceAddrNpi: 1, sourceAddr: '61400000000', destAddrTon: 1, destAddrNpi: 1,
        destinationAddr: w.to.replace(/^\+/, ''), esmClass: 0, protocolId: 0, priorityFlag: 0, scheduleDeliveryTime: '',
        validityPeriod: '', registeredDelivery: 1, replaceIfPresentFlag: 0, dataCoding: 0, smDefaultMsgId: 0,
        shortMessage: Buffer.from(w.body, 'latin1'),
      }).then((resp) => {
        const smscId = normaliseMessageId(resp.messageId);
        idBySmsc.set(smscId, w.id);
        const waiting = early.get(smscId);
        if (waiting) { early.delete(smscId); waiting(); }
      });
    };
    return { client, submit };
  }
}
