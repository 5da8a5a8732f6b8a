import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../config.ts';
import { readAdminToken } from '../platform/admin-token.ts';
import { CliError } from './cli-error.ts';

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

/** `--limit` and `--offset` of every list command; the API pages at most 100 rows. */
function paged(command: Command): Command {
  return command.option('--limit <n>', 'rows per page (1 to 100)', whole('--limit', 1, 100), 25)
    .option('--offset <n>', 'rows to skip', whole('--offset', 0, 1_000_000), 0);
}

/** A query string from the options given (unset ones left out). */
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  return search.size ? `?${search}` : '';
}

type Page = { limit: number; offset: number };

/** Calls the operator API and prints its JSON answer; exit status 2 for an API error. */
async function callApi(method: Method, path: string, body?: unknown): Promise<void> {
  const res = await operatorRequest(method, path, body);
  process.stdout.write(`${res.text}\n`);
  if (res.status >= 300) process.exitCode = 2;
}

/** One request to the operator API (TASMAN_URL, the operator token): its status and body text. */
export async function operatorRequest(method: Method, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const config = loadConfig();
  const token = config.adminToken ?? readAdminToken(config.dataDir);
  if (!token) throw new CliError('no operator token: set TASMAN_ADMIN_TOKEN, or run `tasman start` once to generate one into DATA_DIR');
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

/** `tasman admin …`: operator commands over the HTTP API (TASMAN_URL, default http://127.0.0.1:$PORT). */
export function adminCommand(): Command {
  const admin = new Command('admin')
    .description('operator commands over the HTTP API (TASMAN_URL, default http://127.0.0.1:$PORT); the token comes from TASMAN_ADMIN_TOKEN or DATA_DIR/admin.token')
    .addHelpText('after', '\nEvery command prints the API\'s JSON answer and exits 2 when the API refuses.');

  const account = admin.command('account').description('create, read and change accounts');
  account.command('create').description('create an account with its first API key')
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
    .action((o: Page & { search?: string }) => callApi('GET', `/admin/accounts${query({ q: o.search, limit: o.limit, offset: o.offset })}`));
  account.command('get').description('show an account').argument('<id>', 'account id')
    .action((id: string) => callApi('GET', `/admin/accounts/${encodeURIComponent(id)}`));
  account.command('update').description('change an account').argument('<id>', 'account id')
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
  credits.command('add').description('add credits').argument('<account-id>').argument('<amount>', 'credits to add', whole('amount', 1, 100_000_000))
    .action((id: string, amount: number) => callApi('POST', `/admin/accounts/${encodeURIComponent(id)}/credits`, { amount }));
  credits.command('remove').description('remove credits (refused when the account holds fewer)').argument('<account-id>')
    .argument('<amount>', 'credits to remove', whole('amount', 1, 100_000_000))
    .action((id: string, amount: number) => callApi('POST', `/admin/accounts/${encodeURIComponent(id)}/credits`, { amount: -amount }));

  const key = admin.command('key').description('list, issue and revoke API keys');
  paged(key.command('list').description('list API keys, newest first (prefixes, never the keys)')
    .option('--account <id>', 'only this account\'s keys')
    .option('--prefix <prefix>', 'keys whose prefix starts with this (tsm_…)')
    .addOption(new Option('--status <status>', 'only active or only revoked keys').choices(['active', 'revoked'])))
    .action((o: Page & { account?: string; prefix?: string; status?: string }) => callApi('GET', `/admin/keys${query({
      account_id: o.account, prefix: o.prefix, status: o.status, limit: o.limit, offset: o.offset,
    })}`));
  key.command('create').description('issue an API key (shown once)').argument('<account-id>').option('--name <name>', 'a label for the key', 'CLI')
    .action((id: string, o: { name: string }) => callApi('POST', `/admin/accounts/${encodeURIComponent(id)}/keys`, { name: o.name }));
  key.command('revoke').description('revoke an API key').argument('<account-id>').argument('<key-id>')
    .action((id: string, keyId: string) => callApi('DELETE', `/admin/accounts/${encodeURIComponent(id)}/keys/${encodeURIComponent(keyId)}`));

  const senderId = admin.command('sender-id').description('alphanumeric Sender IDs');
  paged(senderId.command('list').description('list registered Sender IDs, newest first')
    .option('--search <text>', 'part of the Sender ID (any case)').option('--abn <abn>', 'only those registered to this ABN')
    .option('--account <id>', 'only those registered to this account'))
    .action((o: Page & { search?: string; abn?: string; account?: string }) => callApi('GET', `/admin/sender-ids${query({
      q: o.search, abn: o.abn, account_id: o.account, limit: o.limit, offset: o.offset,
    })}`));
  senderId.command('add').description('register a Sender ID to an ABN')
    .requiredOption('--sender-id <name>', '3 to 11 characters').requiredOption('--abn <abn>', 'the ABN it belongs to')
    .option('--account <id>', 'the account that may use it')
    .action((o: { senderId: string; abn: string; account?: string }) => callApi('POST', '/admin/sender-ids', { sender_id: o.senderId, abn: o.abn, account_id: o.account }));

  const number = admin.command('number').description('dedicated numbers');
  paged(number.command('list').description('list dedicated numbers in number order')
    .option('--search <digits>', 'digits of the number, local (04…) or international')
    .addOption(new Option('--country <country>', 'only this country\'s').choices(['AU', 'NZ']))
    .addOption(new Option('--status <status>', 'pool: no holder; held: an account holds it').choices(['pool', 'held']))
    .option('--account <id>', 'only this account\'s'))
    .action((o: Page & { search?: string; country?: string; status?: string; account?: string }) => callApi('GET', `/admin/numbers${query({
      q: o.search, country: o.country, status: o.status, account_id: o.account, limit: o.limit, offset: o.offset,
    })}`));
  number.command('add').description('add a number to the pool, or straight to an account')
    .argument('<number>', 'the number, E.164 or local')
    .addOption(new Option('--country <country>', 'its country').choices(['AU', 'NZ']).makeOptionMandatory())
    .option('--account <id>', 'give it to this account')
    .option('--price <n>', 'monthly price (informational)', price)
    .action((number: string, o: { country: string; account?: string; price?: number }) => callApi('POST', '/admin/numbers', {
      number, country: o.country, account_id: o.account, price_monthly: o.price,
    }));

  admin.command('carrier').description('carriers').command('list').description('the carriers this configuration sends through (from the environment)')
    .action(() => {
      const { carriers } = loadConfig();
      const list = carriers.config
        ? carriers.config.carriers.map((c) => ({
          name: c.id, host: c.host, port: c.port, system_id: c.systemId, tls: c.tls, bind_mode: c.bindMode, binds: c.binds, window: c.window, tps: c.tps,
        }))
        : [{ name: 'simulator', host: '127.0.0.1', simulator: true, count: carriers.simulated }];
      process.stdout.write(`${JSON.stringify({ carriers: list, ...(carriers.config ? { routes: carriers.config.routes } : {}) })}\n`);
    });

  // The running server's view: state per carrier and bind, in flight, submits/s, errors, receipts waiting.
  const carriers = admin.command('carriers').description('carriers and binds of the running server, and its routes')
    .action(() => callApi('GET', '/admin/carriers'));
  carriers.command('reload').description('re-read TASMAN_CARRIERS (carriers and routes) and apply it without a restart, on every instance')
    .option('--routes-only', 'only the routes, on this instance')
    .action((o: { routesOnly?: boolean }) => callApi('POST', o.routesOnly ? '/admin/carriers/routes/reload' : '/admin/carriers/reload'));

  // Named operators: a token per person, named in the audit log; the bootstrap token adds the first.
  const operator = admin.command('operator').description('named operators: each with a token of their own, named in the audit log');
  operator.command('add').description('add an operator; prints their token once (they set it as TASMAN_ADMIN_TOKEN)')
    .argument('<name>', 'who they are, as the audit log names them')
    .action((name: string) => callApi('POST', '/admin/operators', { name }));
  operator.command('list').description('the live operators (never their tokens)')
    .option('--all', 'removed operators too')
    .action((o: { all?: boolean }) => callApi('GET', `/admin/operators${query({ include_revoked: o.all ? 'true' : undefined })}`));
  operator.command('remove').description('remove an operator: their token stops working at once')
    .argument('<operator-id>', 'the operator\'s id (from `operator list`)')
    .action((id: string) => callApi('DELETE', `/admin/operators/${encodeURIComponent(id)}`));

  admin.command('inbound').description('make the built-in SMSC send an inbound message (simulator only)')
    .requiredOption('--from <number>', 'the sender\'s number').requiredOption('--to <number>', 'the service number')
    .requiredOption('--text <text>', 'the message')
    .action((o: { from: string; to: string; text: string }) => callApi('POST', '/admin/simulator/inbound', o));
  return admin;
}
