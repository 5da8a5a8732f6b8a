// Migration 0027 (roles and permissions) on data as it was before it (decision 0065): a scratch database migrated
// up to 0026, users and keys inserted in that schema, then the production start-up migrates the rest. Each
// account's earliest active user is its owner with both flags, everyone else keeps their flags as a member, an
// account without users has no owner, and keys holding `manage` gain `billing`.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/client.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';

const MIGRATIONS = fileURLToPath(new URL('../../src/platform/db/migrations', import.meta.url));
const BEFORE = '0026_parked_receipt_holders';

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let client: pg.Client;
const folder = mkdtempSync(path.join(tmpdir(), 'tasman-migrations-'));

beforeAll(async () => {
  scratch = await createScratchDatabase('tasman_migration');
  // The migrations folder as it stood at 0026: the same files, the journal cut after it.
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const upTo = journal.entries.findIndex((e) => e.tag === BEFORE);
  expect(upTo).toBeGreaterThan(0);
  writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
  client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  await migrate(drizzle(client), { migrationsFolder: folder });
});
afterAll(async () => {
  await client?.end();
  await scratch?.drop();
  rmSync(folder, { recursive: true, force: true });
});

// Fixed ids, so the tie between two users created at the same instant is decided by id, as the migration does.
const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const ACCOUNT = { clinic: id(1), tie: id(2), sub: id(3), parent: id(4) };

it('makes each account\'s earliest active user its owner, keeps everyone else a member with their flags, and gives manage keys billing', async () => {
  const columns = await client.query<{ column_name: string }>(`select column_name from information_schema.columns where table_name = 'account_users' and column_name = 'role'`);
  expect(columns.rows).toEqual([]); // the schema really is the one before roles

  await client.query(`insert into accounts (id, business_name, parent_id) values
    ($1, 'Harbour Clinic', null), ($2, 'Twin Desks', null), ($4, 'Parent Co', null), ($3, 'Parent Co Sydney', $4)`,
  [ACCOUNT.clinic, ACCOUNT.tie, ACCOUNT.sub, ACCOUNT.parent]);
  await client.query(`insert into account_users (id, account_id, email, can_send, can_billing, status, created_at, removed_at) values
    ($1, $5, 'left@clinic.test',      true,  true,  'removed', '2025-01-01', '2025-02-01'),
    ($2, $5, 'first@clinic.test',     false, false, 'active',  '2025-03-01', null),
    ($3, $5, 'reception@clinic.test', true,  false, 'active',  '2025-04-01', null),
    ($4, $5, 'books@clinic.test',     false, true,  'active',  '2025-05-01', null),
    ($7, $6, 'b@twin.test',           true,  false, 'active',  '2025-06-01', null),
    ($8, $6, 'a@twin.test',           false, false, 'active',  '2025-06-01', null),
    ($9, $10, 'boss@parent.test',     true,  false, 'active',  '2025-01-01', null)`,
  [id(11), id(12), id(13), id(14), ACCOUNT.clinic, ACCOUNT.tie, id(22), id(21), id(31), ACCOUNT.parent]);
  await client.query(`insert into api_keys (id, account_id, name, prefix, hash, scopes) values
    ($1, $5, 'all', 'tsm_all', 'h1', '{read,send,manage}'),
    ($2, $5, 'reader', 'tsm_rd', 'h2', '{read}'),
    ($3, $5, 'admin only', 'tsm_mg', 'h3', '{manage}'),
    ($4, $5, 'sender', 'tsm_sd', 'h4', '{read,send}')`,
  [id(41), id(42), id(43), id(44), ACCOUNT.clinic]);

  // The rest, as a starting Tasman applies them.
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: '', poolSize: 1 });
  await database.close();

  const users = await client.query<{ id: string; role: string; can_send: boolean; can_billing: boolean }>(
    'select id, role, can_send, can_billing from account_users order by id');
  const byId = Object.fromEntries(users.rows.map((u) => [u.id, { role: u.role, can_send: u.can_send, can_billing: u.can_billing }]));
  expect(byId).toEqual({
    // Harbour Clinic: the removed user is older but not active; the earliest active one owns it, with both flags.
    [id(11)]: { role: 'member', can_send: true, can_billing: true },
    [id(12)]: { role: 'owner', can_send: true, can_billing: true },
    [id(13)]: { role: 'member', can_send: true, can_billing: false },
    [id(14)]: { role: 'member', can_send: false, can_billing: true },
    // Twin Desks: created at the same instant, the smaller id owns it.
    [id(21)]: { role: 'owner', can_send: true, can_billing: true },
    [id(22)]: { role: 'member', can_send: true, can_billing: false },
    // Parent Co's only user owns it; its sub-account, without users, has no owner (its parent's owner and admins manage it).
    [id(31)]: { role: 'owner', can_send: true, can_billing: true },
  });
  const owners = await client.query<{ account_id: string; n: number }>(
    `select a.id as account_id, count(u.id)::int as n from accounts a
     left join account_users u on u.account_id = a.id and u.role = 'owner' and u.removed_at is null group by a.id order by a.id`);
  expect(owners.rows).toEqual([
    { account_id: ACCOUNT.clinic, n: 1 }, { account_id: ACCOUNT.tie, n: 1 }, { account_id: ACCOUNT.sub, n: 0 }, { account_id: ACCOUNT.parent, n: 1 },
  ]);

  const keys = await client.query<{ name: string; scopes: string[]; created_by_user: string | null }>('select name, scopes, created_by_user from api_keys order by id');
  expect(keys.rows).toEqual([
    { name: 'all', scopes: ['read', 'send', 'billing', 'manage'], created_by_user: null },
    { name: 'reader', scopes: ['read'], created_by_user: null },
    { name: 'admin only', scopes: ['billing', 'manage'], created_by_user: null },
    { name: 'sender', scopes: ['read', 'send'], created_by_user: null },
  ]);
  // A second owner in one account is refused from now on.
  await expect(client.query(`update account_users set role = 'owner' where id = $1`, [id(13)])).rejects.toThrow(/account_users_owner_idx/);
});
