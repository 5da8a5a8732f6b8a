import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../config.ts';
import { adminTokenFile, readAdminToken } from '../platform/admin-token.ts';
import { CliError } from './cli-error.ts';
import { senderRequestCommands } from './admin-sender-requests.ts';
import * as views from './admin-views.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A whole number in a range, or a usage error naming the argument. */
const whole = (what: string, min: number, max: number) => (raw: string): number => {
  if (!/^-?\d+$/.test(raw.trim())) throw new InvalidArgumentError(`${what} must be a whole number.`);
  const n = Number(raw);
  if (n < min || n > max) throw new InvalidArgumentError(`${what} must be between ${min} and ${max}.`);
  return n;
};
const price = (raw: string): number => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('the price must be a number, 0 or more.');
  return n;
};

/** `--json`: the API's answer as it came, for scripts, instead of the table or `key: value` lines. */
const printing = (command: Command): Command => command.option('--json', 'print the API\'s JSON answer (for scripts)');

/** `--limit` and `--offset` of every list command; the API pages at most 100 rows. */
function paged(command: Command): Command {
  return printing(command).option('--limit <n>', 'rows per page (1 to 100)', whole('--limit', 1, 100), 25)
    .option('--offset <n>', 'rows to skip (the last line names the next page\'s)', whole('--offset', 0, 1_000_000), 0);
}

/** A query string from the options given (unset ones left out). */
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  return search.size ? `?${search}` : '';
}

type Page = { limit: number; offset: number };

/**
 * Calls the operator API and prints its answer, through `view` for people or as it came with `--json`. An API
 * error is exit status 2: its JSON on stdout with `--json`, else its message on stderr.
 */
async function call(json: boolean, view: views.View, method: Method, path: string, body?: unknown): Promise<void> {
  const res = await operatorRequest(method, path, body);
  if (res.status >= 300) process.exitCode = 2;
  if (json) {
    process.stdout.write(`${res.text}\n`);
    return;
  }
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    answer = { error: res.text };
  }
  if (res.status >= 300) process.stderr.write(`tasman: ${String(answer.error ?? res.text)} (${String(answer.code ?? 'error')}, HTTP ${res.status})\n`);
  else process.stdout.write(`${view(answer)}\n`);
}

/** One request to the operator API (TASMAN_URL, the operator token): its status and body text. */
export async function operatorRequest(method: Method, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const config = loadConfig();
  const token = config.adminToken ?? readAdminToken(config.dataDir);
  if (!token) {
    throw new CliError(`no operator token: TASMAN_ADMIN_TOKEN is unset and ${adminTokenFile(config.dataDir)} does not exist (set TASMAN_ADMIN_TOKEN, or run \`tasman start\` once with this DATA_DIR to generate it)`);
  }
  // With TLS_CERT_FILE the local default is HTTPS (a private CA: NODE_EXTRA_CA_CERTS).
  const base = (process.env.TASMAN_URL ?? `${config.tls ? 'https' : 'http'}://127.0.0.1:${config.port}`).replace(/\/+$/, '');
  const payload = body === undefined ? undefined : JSON.stringify(body);
  // undici is loaded here, not at the top: every `tasman` process parses this command, few call the API.
  const { request } = await import('undici');
  let res;
  try {
    res = await request(`${base}${path}`, {
      method, body: payload,
      headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new CliError(`cannot reach Tasman at ${base} (${code}): is \`tasman start\` running? Set TASMAN_URL to its address`);
  }
  return { status: res.statusCode, text: await res.body.text() };
}

/** The carriers of this environment's configuration, as `carriers --configured` prints them. */
async function configuredCarriers(): Promise<Record<string, unknown>> {
  const { carriers, simulator } = loadConfig();
  if (carriers.config) {
    return {
      carriers: carriers.config.carriers.map((c) => ({
        name: c.id, host: c.host, port: c.port, system_id: c.systemId, tls: c.tls, bind_mode: c.bindMode, binds: c.binds, window: c.window, tps: c.tps,
      })),
      routes: carriers.config.routes,
    };
  }
  const { simulatedCarrierIds } = await import('../carrier/index.ts');
  // SIM_PORT 0 lets the OS pick each port: 0 is shown as it is.
  const ports = (i: number) => (simulator.port === 0 ? 0 : simulator.port + i);
  return { carriers: simulatedCarrierIds(carriers.simulated).map((name, i) => ({ name, host: '127.0.0.1', port: ports(i), simulator: true })) };
}

/** `tasman admin …`: operator commands over the HTTP API (TASMAN_URL, default http://127.0.0.1:$PORT). */
export function adminCommand(): Command {
  const admin = new Command('admin')
    .description('operator commands over the HTTP API (TASMAN_URL, default http://127.0.0.1:$PORT); the token comes from TASMAN_ADMIN_TOKEN or DATA_DIR/admin.token')
    .addHelpText('after', '\nEvery command prints a table or `key: value` lines, or with --json the API\'s JSON answer; it exits 2 when the API refuses.');
  // Which way to print, read from the command that runs (each has --json).
  let json = false;
  admin.hook('preAction', (_admin, action) => { json = action.opts<{ json?: boolean }>().json === true; });
  const callApi = (method: Method, path: string, body?: unknown, view: views.View = views.one) => call(json, view, method, path, body);

  const account = admin.command('account').description('create, read and change accounts');
  printing(account.command('create').description('create an account with its first API key'))
    .requiredOption('--name <name>', 'business name')
    .requiredOption('--email <email>', 'owner\'s email')
    .option('--abn <abn>', 'Australian Business Number (11 digits)')
    .option('--credits <n>', 'starting credits', whole('--credits', 0, 100_000_000))
    .option('--hierarchy', 'allow sub-accounts')
    .action((o: { name: string; email: string; abn?: string; credits?: number; hierarchy?: boolean }) => callApi('POST', '/admin/accounts', {
      business_name: o.name, email: o.email, abn: o.abn, credits: o.credits, hierarchy_enabled: o.hierarchy,
    }));
  paged(account.command('list').description('list accounts, newest first')
    .option('--search <text>', 'part of the name or email (any case), or the whole account id'))
    .action((o: Page & { search?: string }) => callApi('GET', `/admin/accounts${query({ q: o.search, limit: o.limit, offset: o.offset })}`, undefined, views.accounts));
  printing(account.command('get').description('show an account')).argument('<id>', 'account id')
    .action((id: string) => callApi('GET', `/admin/accounts/${encodeURIComponent(id)}`));
  printing(account.command('update').description('change an account')).argument('<id>', 'account id')
    .option('--hierarchy', 'allow sub-accounts')
    .option('--no-hierarchy', 'disallow sub-accounts')
    .option('--abn <abn>', 'Australian Business Number (11 digits)')
    .addOption(new Option('--status <status>', 'account status').choices(['active', 'suspended']))
    .action((id: string, o: { hierarchy?: boolean; abn?: string; status?: string }) => {
      const body = { hierarchy_enabled: o.hierarchy, abn: o.abn, account_status: o.status };
      if (Object.values(body).every((v) => v === undefined)) throw new CliError('nothing to change: give --hierarchy, --no-hierarchy, --abn or --status');
      return callApi('PATCH', `/admin/accounts/${encodeURIComponent(id)}`, body);
    });

  const credits = admin.command('credits').description('add or remove an account\'s credits');
  printing(credits.command('add').description('add credits')).argument('<account-id>').argument('<amount>', 'credits to add', whole('amount', 1, 100_000_000))
    .action((id: string, amount: number) => callApi('POST', `/admin/accounts/${encodeURIComponent(id)}/credits`, { amount }));
  printing(credits.command('remove').description('remove credits (refused when the account holds fewer)')).argument('<account-id>')
    .argument('<amount>', 'credits to remove', whole('amount', 1, 100_000_000))
    .action((id: string, amount: number) => callApi('POST', `/admin/accounts/${encodeURIComponent(id)}/credits`, { amount: -amount }));

  const key = admin.command('key').description('list, issue and revoke API keys');
  paged(key.command('list').description('list API keys, newest first (prefixes, never the keys)')
    .option('--account <id>', 'only this account\'s keys')
    .option('--prefix <prefix>', 'keys whose prefix starts with this (tsm_…)')
    .addOption(new Option('--status <status>', 'only active or only revoked keys').choices(['active', 'revoked'])))
    .action((o: Page & { account?: string; prefix?: string; status?: string }) => callApi('GET', `/admin/keys${query({
      account_id: o.account, prefix: o.prefix, status: o.status, limit: o.limit, offset: o.offset,
    })}`, undefined, views.keys));
  printing(key.command('create').description('issue an API key (shown once)')).argument('<account-id>').option('--name <name>', 'a label for the key', 'CLI')
    .action((id: string, o: { name: string }) => callApi('POST', `/admin/accounts/${encodeURIComponent(id)}/keys`, { name: o.name }));
  printing(key.command('revoke').description('revoke an API key')).argument('<account-id>').argument('<key-id>')
    .action((id: string, keyId: string) => callApi('DELETE', `/admin/accounts/${encodeURIComponent(id)}/keys/${encodeURIComponent(keyId)}`));

  const senderId = admin.command('sender-id').description('alphanumeric Sender IDs');
  paged(senderId.command('list').description('list registered Sender IDs, newest first')
    .option('--search <text>', 'part of the Sender ID (any case)').option('--abn <abn>', 'only those registered to this ABN')
    .option('--account <id>', 'only those registered to this account'))
    .action((o: Page & { search?: string; abn?: string; account?: string }) => callApi('GET', `/admin/sender-ids${query({
      q: o.search, abn: o.abn, account_id: o.account, limit: o.limit, offset: o.offset,
    })}`, undefined, views.senderIds));
  printing(senderId.command('add').description('register a Sender ID to an ABN'))
    .requiredOption('--sender-id <name>', '3 to 11 characters').requiredOption('--abn <abn>', 'the ABN it belongs to')
    .option('--account <id>', 'the account that may use it')
    .action((o: { senderId: string; abn: string; account?: string }) => callApi('POST', '/admin/sender-ids', { sender_id: o.senderId, abn: o.abn, account_id: o.account }));
  senderRequestCommands(senderId, { callApi, printing, paged, query });

  const number = admin.command('number').description('dedicated numbers');
  paged(number.command('list').description('list dedicated numbers in number order')
    .option('--search <digits>', 'digits of the number, local (04…) or international')
    .addOption(new Option('--country <country>', 'only this country\'s').choices(['AU', 'NZ']))
    .addOption(new Option('--status <status>', 'pool: no holder; held: an account holds it').choices(['pool', 'held']))
    .option('--account <id>', 'only this account\'s'))
    .action((o: Page & { search?: string; country?: string; status?: string; account?: string }) => callApi('GET', `/admin/numbers${query({
      q: o.search, country: o.country, status: o.status, account_id: o.account, limit: o.limit, offset: o.offset,
    })}`, undefined, views.numbers));
  printing(number.command('add').description('add a number to the pool, or straight to an account'))
    .argument('<number>', 'the number, E.164 or local')
    .addOption(new Option('--country <country>', 'its country').choices(['AU', 'NZ']).makeOptionMandatory())
    .option('--account <id>', 'give it to this account')
    .option('--price <n>', 'monthly price (informational)', price)
    .action((number: string, o: { country: string; account?: string; price?: number }) => callApi('POST', '/admin/numbers', {
      number, country: o.country, account_id: o.account, price_monthly: o.price,
    }));

  // One command for the carriers: the running server's live view, or with --configured what this environment
  // configures (read here, no server asked), the simulator named as `tasman start` names it.
  const carriers = printing(admin.command('carriers').description('carriers and binds of the running server, and its routes'))
    .option('--configured', 'the carriers this environment configures (TASMAN_CARRIERS, SMPP_*, or the built-in simulator), without asking a server')
    .action(async (o: { configured?: boolean }) => {
      if (!o.configured) return callApi('GET', '/admin/carriers', undefined, views.carriers);
      const answer = await configuredCarriers();
      process.stdout.write(`${json ? JSON.stringify(answer) : views.configuredCarriers(answer)}\n`);
    });
  printing(carriers.command('reload').description('re-read TASMAN_CARRIERS (carriers and routes) and apply it without a restart, on every instance'))
    .option('--routes-only', 'only the routes, on this instance')
    .action((o: { routesOnly?: boolean }) => callApi('POST', o.routesOnly ? '/admin/carriers/routes/reload' : '/admin/carriers/reload'));

  // Named operators: a token per person, named in the audit log; the bootstrap token adds the first.
  const operator = admin.command('operator').description('named operators: each with a token of their own, named in the audit log');
  printing(operator.command('add').description('add an operator; prints their token once (they set it as TASMAN_ADMIN_TOKEN) and their console setup link'))
    .argument('<name>', 'who they are, as the audit log names them')
    .action((name: string) => callApi('POST', '/admin/operators', { name }));
  printing(operator.command('list').description('the live operators (never their tokens)'))
    .option('--all', 'removed operators too')
    .action((o: { all?: boolean }) => callApi('GET', `/admin/operators${query({ include_revoked: o.all ? 'true' : undefined })}`, undefined, views.operators));
  printing(operator.command('setup-link').description('a new console setup link for an operator who lost their password or authenticator (ends their console sessions)'))
    .argument('<operator-id>', 'the operator\'s id (from `operator list`)')
    .action((id: string) => callApi('POST', `/admin/operators/${encodeURIComponent(id)}/setup-link`));
  printing(operator.command('remove').description('remove an operator: their token stops working at once'))
    .argument('<operator-id>', 'the operator\'s id (from `operator list`)')
    .action((id: string) => callApi('DELETE', `/admin/operators/${encodeURIComponent(id)}`));

  printing(admin.command('inbound').description('make the built-in SMSC send an inbound message (simulator only)'))
    .requiredOption('--from <number>', 'the sender\'s number').requiredOption('--to <number>', 'the service number')
    .requiredOption('--text <text>', 'the message')
    .action((o: { from: string; to: string; text: string }) => callApi('POST', '/admin/simulator/inbound', o));
  return admin;
}
