import { cell, counted, keyValues, pageLine, table, type Cell } from './format.ts';

// How `tasman admin` shows each answer to a person (`--json` prints the answer itself). A list is a table of the
// columns one reads first and a line saying which rows of how many, and how to get the next page.

type Row = Record<string, unknown>;
export type View = (answer: Row) => string;

/** One thing (an account, a created key, a credit move): its fields as `key: value` lines. */
export const one: View = (answer) => keyValues(answer);

type Column = [header: string, value: (row: Row) => Cell];
const field = (header: string, name: string): Column => [header, (row) => cell(row[name])];

function list(key: string, noun: string, columns: Column[]): View {
  return (answer) => {
    const rows = (answer[key] as Row[] | undefined) ?? [];
    const total = typeof answer.total === 'number' ? answer.total : rows.length;
    const footer = typeof answer.offset === 'number'
      ? pageLine({ shown: rows.length, total, offset: answer.offset, limit: answer.limit as number }, noun)
      : `${counted(total, noun)}.`;
    if (rows.length === 0) return footer;
    return `${table(columns.map(([h]) => h), rows.map((row) => columns.map(([, value]) => value(row))))}\n\n${footer}`;
  };
}

const status = (row: Row) => (row.revoked_at ? 'revoked' : 'active');

export const accounts = list('accounts', 'accounts', [
  field('ACCOUNT', 'account_id'), field('NAME', 'business_name'), field('EMAIL', 'email'), field('STATUS', 'account_status'),
  ['CREDITS', (row) => row.credits as number], field('PARENT', 'parent_account_id'), field('CREATED', 'created_at'),
]);

export const keys = list('keys', 'keys', [
  field('KEY', 'id'), field('ACCOUNT', 'account_id'), field('NAME', 'name'), field('PREFIX', 'prefix'), field('SCOPES', 'scopes'),
  ['STATUS', status], field('LAST USED', 'last_used_at'),
]);

export const senderIds = list('sender_ids', 'Sender IDs', [
  field('SENDER ID', 'sender_id'), field('ABN', 'abn'), field('ACCOUNT', 'account_id'), field('REGISTERED', 'created_at'), field('ID', 'id'),
]);

export const numbers = list('numbers', 'numbers', [
  field('NUMBER', 'number'), field('COUNTRY', 'country'), field('ACCOUNT', 'account_id'), field('LABEL', 'label'),
  field('PAID UNTIL', 'paid_until'), field('UNPAID SINCE', 'unpaid_since'), field('PRICE', 'price_monthly'),
]);

export const operators = list('operators', 'operators', [
  field('OPERATOR', 'id'), field('NAME', 'name'), field('TOKEN', 'token_prefix'), field('ADDED BY', 'created_by'),
  field('ADDED', 'created_at'), field('REMOVED', 'revoked_at'),
]);

interface Bind { index: number; state: string; in_flight: number; pending: number; submits_per_second: number; errors: number; tps: number | null; throttled_now: boolean }
interface Carrier {
  id: string; address: string; state: string; available: boolean; in_flight: number; submits_per_second: number; errors: number;
  receipts_waiting: number; binds: Bind[];
}
interface CarrierRoute { country?: string[]; prefix?: string[]; sender?: string; account?: string[]; carriers: string[] }

/** Which messages a route takes, in words: `country AU, NZ`, `prefix 6141`, or every message. */
export const routeMatch = (r: CarrierRoute): string => [
  r.country && `country ${r.country.join(', ')}`, r.prefix && `prefix ${r.prefix.join(', ')}`,
  r.sender && `sender ${r.sender}`, r.account && `account ${r.account.join(', ')}`,
].filter(Boolean).join('; ') || 'every message';

const routesTable = (routes: CarrierRoute[]) => table(['ROUTE', 'MATCHES', 'CARRIERS (preferred first)'],
  routes.map((r, i) => [i + 1, routeMatch(r), r.carriers.join(' → ')]));

/** The running server's carriers: one line per carrier, one per bind under it, then the routes. */
export const carriers: View = (answer) => {
  const rows: Cell[][] = [];
  for (const c of answer.carriers as Carrier[]) {
    rows.push([c.id, c.state + (c.available ? '' : ' (unavailable)'), c.address, c.in_flight, c.submits_per_second.toFixed(1), c.errors, c.receipts_waiting]);
    for (const b of c.binds) {
      const pace = b.tps === null ? '' : ` at ${b.tps} tps${b.throttled_now ? ' (throttled)' : ''}`;
      rows.push([`  bind ${b.index}`, b.state + pace, '', b.in_flight, b.submits_per_second.toFixed(1), b.errors, '']);
    }
  }
  const unserved = answer.unserved_countries as string[];
  return [
    table(['CARRIER', 'STATE', 'ADDRESS', 'IN FLIGHT', 'SUBMITS/S', 'ERRORS', 'RECEIPTS WAITING'], rows),
    '',
    routesTable(answer.routes as CarrierRoute[]),
    ...(unserved.length ? ['', `No working carrier for: ${unserved.join(', ')}`] : []),
  ].join('\n');
};

interface Configured { name: string; host: string; port: number; tls?: boolean; system_id?: string; binds?: number; tps?: number | null; simulator?: boolean }

/** This environment's carriers, as `tasman start` would run them (no server asked). */
export const configuredCarriers: View = (answer) => {
  const list = answer.carriers as Configured[];
  const routes = answer.routes as CarrierRoute[] | undefined;
  return [
    table(['CARRIER', 'ADDRESS', 'SYSTEM ID', 'TLS', 'BINDS', 'TPS'], list.map((c) => [
      c.name, `${c.host}:${c.port}`, c.simulator ? '(built-in simulator)' : cell(c.system_id), cell(c.tls ?? false), c.binds ?? 1, cell(c.tps),
    ])),
    ...(routes ? ['', routesTable(routes)] : []),
  ].join('\n');
};
