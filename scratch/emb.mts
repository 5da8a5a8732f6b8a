import { startEmbeddedPostgres } from '/work/wt/issue-16/src/platform/db/embedded/server.ts';
import pg from 'pg';
const t0 = Date.now();
const s = await startEmbeddedPostgres({ dataDir: process.argv[2]! });
console.log('started', Date.now() - t0, 'ms owner', s.owner, s.url.replace(/:[0-9a-f]{48}@/, ':***@'));
const c = new pg.Client({ connectionString: s.url }); await c.connect();
console.log((await c.query('select version(), current_user')).rows[0]); await c.end();
if (process.argv[3] === 'kill') process.kill(process.pid, 'SIGKILL');
await s.stop(); console.log('stopped', Date.now() - t0);
