import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { adminCommand } from '../../src/cli/admin.ts';
import { mcpCommand } from '../../src/cli/mcp.ts';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';

// The CLI as an operator runs it: a child process, its output and exit status.

const bin = fileURLToPath(new URL('../../bin/tasman.js', import.meta.url));
const TOKEN = 'cli-test-operator-token';

async function tasman(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, TASMAN_ADMIN_TOKEN: TOKEN, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

describe('tasman CLI without a server', () => {
  it('prints help for every subcommand and starts nothing', async () => {
    const create = await tasman(['admin', 'account', 'create', '--help']);
    expect(create.code).toBe(0);
    expect(create.stdout).toContain('Usage: tasman admin account create [options]');
    expect(create.stdout).toContain('--hierarchy');
    // --help on start must not start a server: it answers and exits at once.
    const start = await tasman(['start', '--help'], { PORT: '1' });
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('Usage: tasman start');
    const remove = await tasman(['admin', 'credits', 'remove', '--help']);
    expect(remove.stdout).toContain('Usage: tasman admin credits remove [options] <account-id> <amount>');
  });

  it('every command, at every level, answers --help with its usage and exit 0, starting nothing', { timeout: 300_000 }, async () => {
    const paths: string[][] = [[], ['start'], ['migrate'], ['simulator']];
    const walk = (c: Command, at: string[]) => {
      paths.push([...at, c.name()]);
      for (const sub of c.commands) walk(sub, [...at, c.name()]);
    };
    walk(adminCommand(), []);
    walk(mcpCommand(), []);
    expect(paths.length).toBeGreaterThan(20);
    // Four at a time: each is a Node start.
    for (let i = 0; i < paths.length; i += 4) {
      await Promise.all(paths.slice(i, i + 4).map(async (p) => {
        const res = await tasman([...p, '--help'], { PORT: '1', DATABASE_URL: 'postgres://127.0.0.1:1/none' });
        expect(res.code, p.join(' ')).toBe(0);
        expect(res.stdout, p.join(' ')).toMatch(new RegExp(`^Usage: ${['tasman', ...p].join(' ')} `));
        expect(res.stderr, p.join(' ')).toBe('');
      }));
    }
  });

  it('--version prints the release that package.json and the changelog name', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const res = await tasman(['--version']);
    expect(res).toEqual({ code: 0, stdout: version, stderr: '' });
    const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
    expect(changelog).toContain(`## [${version}]`);
  });

  it('usage errors are one line and a hint, never a stack trace', async () => {
    const unknown = await tasman(['bogus']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("error: unknown command 'bogus'\n(run with --help for usage)");
    const choice = await tasman(['admin', 'account', 'update', 'x', '--status', 'closed']);
    expect(choice.code).toBe(1);
    expect(choice.stderr).toContain("error: option '--status <status>' argument 'closed' is invalid. Allowed choices are active, suspended.");
    const missing = await tasman(['admin', 'number', 'add', '+61491570006']);
    expect(missing.stderr).toContain("error: required option '--country <country>' not specified");
    expect(`${unknown.stderr}${choice.stderr}${missing.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('an unreachable server is one line saying what to check', async () => {
    const res = await tasman(['admin', 'account', 'get', 'x'], { TASMAN_URL: 'http://127.0.0.1:1' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('tasman: cannot reach Tasman at http://127.0.0.1:1 (ECONNREFUSED): is `tasman start` running? Set TASMAN_URL to its address');
  });

  it('no token: the error names the file it looked for', async () => {
    const dataDir = path.join(tmpdir(), `tasman-cli-${randomUUID()}`);
    const res = await tasman(['admin', 'account', 'list'], { TASMAN_ADMIN_TOKEN: '', DATA_DIR: dataDir });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`tasman: no operator token: TASMAN_ADMIN_TOKEN is unset and ${path.join(dataDir, 'admin.token')} does not exist `
      + '(set TASMAN_ADMIN_TOKEN, or run `tasman start` once with this DATA_DIR to generate it)');
  });

  it('carriers --configured: this environment\'s carriers without a server, the simulator named as start names it', async () => {
    const res = await tasman(['admin', 'carriers', '--configured', '--json'], { SMPP_HOST: 'smsc.example', SMPP_PORT: '2776' });
    expect(JSON.parse(res.stdout)).toMatchObject({ carriers: [{ name: 'default', host: 'smsc.example', port: 2776, binds: 1 }], routes: [{ carriers: ['default'] }] });
    const people = await tasman(['admin', 'carriers', '--configured'], { SMPP_HOST: 'smsc.example', SMPP_PORT: '2776' });
    expect(people.stdout.split('\n')).toEqual(expect.arrayContaining([
      expect.stringMatching(/^CARRIER +ADDRESS +SYSTEM ID +TLS +BINDS +TPS$/), expect.stringMatching(/^default +smsc\.example:2776 +\S+ +no +1\b/),
      expect.stringMatching(/^ROUTE +MATCHES +CARRIERS \(preferred first\)$/), expect.stringMatching(/^ +1 +every message +default$/),
    ]));
    const simulated = JSON.parse((await tasman(['admin', 'carriers', '--configured', '--json'], { SIM_CARRIERS: '2', SIM_PORT: '4775' })).stdout) as unknown;
    expect(simulated).toEqual({ carriers: [
      { name: 'sim1', host: '127.0.0.1', port: 4775, simulator: true }, { name: 'sim2', host: '127.0.0.1', port: 4776, simulator: true },
    ] });
  });
});

describe('tasman admin against a running server', () => {
  let proc: TasmanProcess;
  let env: Record<string, string>;
  // A database of its own: this `tasman start` runs a dispatcher, which on the shared test database would claim and
  // send other test files' queued messages (dispatch-receipts.test.ts saw its messages turn `sent` under it).
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    proc = await startProcess({ DATABASE_URL: scratch.url, TASMAN_ADMIN_TOKEN: TOKEN });
    env = { TASMAN_URL: proc.url };
  });
  afterAll(async () => { await proc?.stop(); await scratch?.drop(); });

  it('tasman status: the state, queues and carriers as a table, or as JSON with --json', async () => {
    const people = await tasman(['status'], env);
    expect(people.code).toBe(0);
    const lines = people.stdout.split('\n');
    expect(lines[0]).toMatch(/^Tasman \d+\.\d+\.\d+: operational at \d{4}-/);
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^SERVICE +STATE$/), expect.stringMatching(/^outbound +operational$/),
      expect.stringMatching(/^QUEUE +WAITING +OLDEST \(s\)$/), expect.stringMatching(/^messages +\d+ +\d+$/),
      expect.stringMatching(/^CARRIER +BOUND +ADDRESS$/), expect.stringMatching(/^default +yes +127\.0\.0\.1:\d+$/),
    ]));
    const scripts = await tasman(['status', '--json'], env);
    expect(scripts.code).toBe(0);
    expect(JSON.parse(scripts.stdout)).toMatchObject({
      status: 'operational', services: { outbound: 'operational' }, carriers_checked: true,
      queues: [{ queue: 'messages' }, { queue: 'webhooks' }], carriers: [{ name: 'default', bound: true }],
    });
    // A wrong token: the API refuses, one line, exit 1.
    const refused = await tasman(['status'], { ...env, TASMAN_ADMIN_TOKEN: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^tasman: GET \/admin\/health answered 401: /);
    // The carriers of the running server: a line per carrier and bind, then the routes.
    const carriers = await tasman(['admin', 'carriers'], env);
    expect(carriers.code).toBe(0);
    expect(carriers.stdout.split('\n')).toEqual(expect.arrayContaining([
      expect.stringMatching(/^CARRIER +STATE +ADDRESS +IN FLIGHT +SUBMITS\/S +ERRORS +RECEIPTS WAITING$/),
      expect.stringMatching(/^default +bound +127\.0\.0\.1:\d+ +\d+ +[\d.]+ +\d+ +\d+$/), expect.stringMatching(/^ {2}bind 0 +bound/),
      expect.stringMatching(/^ +1 +every message +default$/),
    ]));
    expect(JSON.parse((await tasman(['admin', 'carriers', '--json'], env)).stdout)).toMatchObject({ carriers: [{ id: 'default', state: 'bound' }] });
  });

  it('creates an account, moves credits both ways, and sets boolean flags as the help shows them', async () => {
    const created = await tasman(['admin', 'account', 'create', '--name', 'CLI Pty Ltd', '--email', 'cli@example.com', '--credits', '10', '--hierarchy', '--json'], env);
    expect(created.code).toBe(0);
    const account = JSON.parse(created.stdout) as { account_id: string; credits: number };
    expect(account.credits).toBe(10);
    const added = await tasman(['admin', 'credits', 'add', account.account_id, '5', '--json'], env);
    expect(JSON.parse(added.stdout)).toEqual({ account_id: account.account_id, credits: 15 });
    const removed = await tasman(['admin', 'credits', 'remove', account.account_id, '12', '--json'], env);
    expect(JSON.parse(removed.stdout)).toEqual({ account_id: account.account_id, credits: 3 });
    const tooMany = await tasman(['admin', 'credits', 'remove', account.account_id, '4', '--json'], env);
    expect(tooMany.code).toBe(2);
    // For people, one thing is `key: value` lines.
    const shown = await tasman(['admin', 'account', 'get', account.account_id], env);
    expect(shown.stdout.split('\n')).toEqual(expect.arrayContaining([
      expect.stringMatching(new RegExp(`^account_id: +${account.account_id}$`)), expect.stringMatching(/^business_name: +CLI Pty Ltd$/),
      expect.stringMatching(/^credits: +3$/), expect.stringMatching(/^hierarchy_enabled: +yes$/),
    ]));
    expect(JSON.parse((await tasman(['admin', 'account', 'get', account.account_id, '--json'], env)).stdout)).toMatchObject({ credits: 3, hierarchy_enabled: true });
    const off = await tasman(['admin', 'account', 'update', account.account_id, '--no-hierarchy', '--json'], env);
    expect(JSON.parse(off.stdout)).toMatchObject({ hierarchy_enabled: false });
    const on = await tasman(['admin', 'account', 'update', account.account_id, '--hierarchy', '--json'], env);
    expect(JSON.parse(on.stdout)).toMatchObject({ hierarchy_enabled: true });
  });

  // A dozen CLI runs, each a Node start: slow on a busy machine.
  it('lists accounts (with search), keys, Sender IDs and numbers, filtered and paged', { timeout: 400_000 }, async () => {
    const tag = randomUUID().slice(0, 8);
    const created = await tasman(['admin', 'account', 'create', '--name', `Lister ${tag} Pty Ltd`, '--email', `lister-${tag}@example.com`, '--json'], env);
    const account = JSON.parse(created.stdout) as { account_id: string; key_id: string; api_key: string };
    const id = account.account_id;

    const accounts = await tasman(['admin', 'account', 'list', '--search', `lister ${tag}`, '--json'], env);
    expect(accounts.code).toBe(0);
    expect(JSON.parse(accounts.stdout)).toMatchObject({ accounts: [{ account_id: id, business_name: `Lister ${tag} Pty Ltd` }], total: 1, limit: 25, offset: 0 });

    await tasman(['admin', 'key', 'create', id, '--name', 'Second'], env);
    const keys = JSON.parse((await tasman(['admin', 'key', 'list', '--account', id, '--status', 'active', '--limit', '1', '--json'], env)).stdout) as { keys: Array<{ name: string }>; limit: number };
    expect(keys).toMatchObject({ keys: [{ name: 'Second' }], total: 2, limit: 1 });
    // For people: a table, which rows of how many, and the options of the next page.
    const table = await tasman(['admin', 'key', 'list', '--account', id, '--limit', '1'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')).toEqual([
      expect.stringMatching(/^KEY +ACCOUNT +NAME +PREFIX +SCOPES +STATUS +LAST USED$/), expect.stringMatching(new RegExp(`^\\S+ +${id} +Second +tsm_\\S+ +.+ +active`)),
      '', '1–1 of 2 keys. Next page: --offset 1 --limit 1',
    ]);
    const last = await tasman(['admin', 'key', 'list', '--account', id, '--limit', '1', '--offset', '1'], env);
    expect(last.stdout).toMatch(/\n\n2–2 of 2 keys\.$/);
    const next = JSON.parse((await tasman(['admin', 'key', 'list', '--account', id, '--limit', '1', '--offset', '1', '--json'], env)).stdout) as { keys: Array<{ id: string }> };
    expect(next.keys.map((k) => k.id)).toEqual([account.key_id]);

    const abn = String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999));
    await tasman(['admin', 'sender-id', 'add', '--sender-id', 'CliShop', '--abn', abn, '--account', id], env);
    const senders = JSON.parse((await tasman(['admin', 'sender-id', 'list', '--abn', abn, '--json'], env)).stdout) as { sender_ids: Array<{ sender_id: string; account_id: string }> };
    expect(senders.sender_ids).toEqual([expect.objectContaining({ sender_id: 'CliShop', account_id: id })]);

    // The account asks for a Sender ID; the operator sees it in the queue and approves it; a second review is refused.
    const asked = await fetch(`${proc.url}/sender-ids`, {
      method: 'POST', headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sender_id: 'CliCafe', abn: '53004085616', use_description: 'Order updates' }),
    });
    const requestId = ((await asked.json()) as { id: string }).id;
    const queue = await tasman(['admin', 'sender-id', 'requests'], env);
    expect(queue.stdout).toMatch(new RegExp(`^REQUEST +SENDER ID +ABN +ACCOUNT .*\n${requestId} +CliCafe +53004085616 +Lister`));
    expect(JSON.parse((await tasman(['admin', 'sender-id', 'approve', requestId, '--json'], env)).stdout)).toMatchObject({ status: 'approved' });
    const late = await tasman(['admin', 'sender-id', 'reject', requestId, '--reason', 'too late'], env);
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('(conflict, HTTP 409)');

    // 040x: a range libphonenumber holds valid for every x (a random 04xx can fall in an unallocated one, 0442).
    const number = `+6140${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
    expect((await tasman(['admin', 'number', 'add', number, '--country', 'AU', '--account', id], env)).code).toBe(0);
    const numbers = JSON.parse((await tasman(['admin', 'number', 'list', '--account', id, '--status', 'held', '--json'], env)).stdout) as { numbers: Array<{ number: string }> };
    expect(numbers.numbers.map((n) => n.number)).toEqual([number]);

    // Bad values are usage errors before any request: the allowed ones are listed.
    const bad = await tasman(['admin', 'number', 'list', '--status', 'sold'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Allowed choices are pool, held.');
    const tooBig = await tasman(['admin', 'key', 'list', '--limit', '500'], env);
    expect(tooBig.code).toBe(1);
    expect(tooBig.stderr).toContain('--limit must be between 1 and 100.');
    // The API's refusal (an account id that is not one) is its JSON and exit status 2.
    const refused = await tasman(['admin', 'key', 'list', '--account', 'nope', '--json'], env);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'validation_failed' });
    // For people, the refusal is one line on stderr.
    const told = await tasman(['admin', 'key', 'list', '--account', 'nope'], env);
    expect(told).toMatchObject({ code: 2, stdout: '' });
    expect(told.stderr).toMatch(/^tasman: .+ \(validation_failed, HTTP 400\)$/);
  });
});
