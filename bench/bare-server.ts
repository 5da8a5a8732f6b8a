// The ceiling /send is measured against: a bare Fastify route that runs one INSERT … RETURNING per request on
// the same database, with the same driver and pool size. No auth, no validation, no business rules.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
await pool.query('create table if not exists bench_bare (id bigserial primary key, recipient text not null, body text not null, created_at timestamptz not null default now())');
const app = Fastify({ logger: false });
app.post('/insert', async (request) => {
  const body = request.body as { to: string; message: string };
  const { rows } = await pool.query('insert into bench_bare (recipient, body) values ($1, $2) returning id', [body.to, body.message]);
  return { id: rows[0].id };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ msg: 'bare started', url })}\n`);
process.on('SIGTERM', () => { void app.close().then(() => pool.end()).then(() => process.exit(0)); });
