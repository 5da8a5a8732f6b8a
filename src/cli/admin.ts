import { parseArgs } from 'node:util';
import { request } from 'undici';
import type { Config } from '../config.ts';
import { readAdminToken } from '../platform/admin-token.ts';

const HELP = `Usage: tasman admin <command> [options]     (TASMAN_URL, default http://127.0.0.1:$PORT)

  account create --name NAME --email EMAIL [--abn ABN] [--credits N] [--hierarchy]
  account get ID
  account update ID [--hierarchy true|false] [--abn ABN] [--status active|suspended]
  credits add ID AMOUNT
  key create ACCOUNT_ID [--name NAME]
  key revoke ACCOUNT_ID KEY_ID
  sender-id add --sender-id NAME --abn ABN [--account ID]
  number add NUMBER --country AU|NZ [--account ID] [--price N]
  inbound --from NUMBER --to NUMBER --text TEXT      (the built-in simulator only)

Every command prints the API's JSON answer. The token comes from TASMAN_ADMIN_TOKEN or DATA_DIR/admin.token.
`;

type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown };

function bool(value: string | boolean | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  return ['true', '1', 'yes', 'on'].includes(value.toLowerCase());
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new Error(`missing ${what}\n\n${HELP}`);
  return value;
}

function plan(args: string[]): Call | null {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' }, email: { type: 'string' }, abn: { type: 'string' }, credits: { type: 'string' },
      hierarchy: { type: 'string' }, status: { type: 'string' }, 'sender-id': { type: 'string' },
      account: { type: 'string' }, country: { type: 'string' }, price: { type: 'string' },
      from: { type: 'string' }, to: { type: 'string' }, text: { type: 'string' },
    },
  });
  const [group, action, a, b] = positionals;
  const flag = (name: keyof typeof values) => values[name] as string | undefined;
  switch (`${group} ${group === 'inbound' ? '' : action}`.trim()) {
    case 'account create':
      return { method: 'POST', path: '/admin/accounts', body: {
        business_name: need(flag('name'), '--name'), email: need(flag('email'), '--email'), abn: flag('abn'),
        credits: flag('credits') === undefined ? undefined : Number(flag('credits')),
        hierarchy_enabled: flag('hierarchy') === undefined ? undefined : bool(flag('hierarchy')),
      } };
    case 'account get':
      return { method: 'GET', path: `/admin/accounts/${need(a, 'ID')}` };
    case 'account update':
      return { method: 'PATCH', path: `/admin/accounts/${need(a, 'ID')}`, body: {
        hierarchy_enabled: bool(flag('hierarchy')), abn: flag('abn'), account_status: flag('status'),
      } };
    case 'credits add':
      return { method: 'POST', path: `/admin/accounts/${need(a, 'ID')}/credits`, body: { amount: Number(need(b, 'AMOUNT')) } };
    case 'key create':
      return { method: 'POST', path: `/admin/accounts/${need(a, 'ACCOUNT_ID')}/keys`, body: { name: flag('name') ?? 'CLI' } };
    case 'key revoke':
      return { method: 'DELETE', path: `/admin/accounts/${need(a, 'ACCOUNT_ID')}/keys/${need(b, 'KEY_ID')}` };
    case 'sender-id add':
      return { method: 'POST', path: '/admin/sender-ids', body: {
        sender_id: need(flag('sender-id'), '--sender-id'), abn: need(flag('abn'), '--abn'), account_id: flag('account'),
      } };
    case 'number add':
      return { method: 'POST', path: '/admin/numbers', body: {
        number: need(a, 'NUMBER'), country: need(flag('country'), '--country'), account_id: flag('account'),
        price_monthly: flag('price') === undefined ? undefined : Number(flag('price')),
      } };
    case 'inbound':
      return { method: 'POST', path: '/admin/simulator/inbound', body: {
        from: need(flag('from'), '--from'), to: need(flag('to'), '--to'), text: need(flag('text'), '--text'),
      } };
    default:
      return null;
  }
}

export async function runAdmin(args: string[], config: Config): Promise<number> {
  if (args.length === 0 || args[0] === 'help' || args.includes('--help')) {
    process.stdout.write(HELP);
    return args.length === 0 ? 1 : 0;
  }
  const call = plan(args);
  if (!call) {
    process.stderr.write(`Unknown admin command "${args.join(' ')}"\n\n${HELP}`);
    return 1;
  }
  const token = config.adminToken ?? readAdminToken(config.dataDir);
  if (!token) {
    process.stderr.write('No operator token: set TASMAN_ADMIN_TOKEN, or run `npm start` once to generate one into DATA_DIR\n');
    return 1;
  }
  const base = (process.env.TASMAN_URL ?? `http://127.0.0.1:${config.port}`).replace(/\/+$/, '');
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const res = await request(`${base}${call.path}`, {
    method: call.method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  const text = await res.body.text();
  process.stdout.write(`${text}\n`);
  return res.statusCode < 300 ? 0 : 2;
}
