// Carriers as configuration (TASMAN_CARRIERS): the SMSCs Tasman binds to and the routes between them. Pure: the
// file's text and the environment in, a checked configuration out, or one error naming the field that is wrong.
// Passwords never have to live in the file: `password_env` names the environment variable that holds one.
import { parseRoutes, type RouteRule } from './routes.ts';
import type { IdBase } from './smpp/receipt.ts';
import type { InboundDefaultAlphabet } from './smpp/encoding.ts';

import type { BindMode } from './smpp/bind-pool.ts';

export interface CarrierConfig {
  /** The carrier's name: stored with every SMSC id it gives, shown to operators, named in routes. */
  id: string;
  host: string;
  port: number;
  tls: boolean;
  systemId: string;
  password: string;
  systemType: string;
  /** One bind_transceiver per bind, or a bind_transmitter and a bind_receiver per bind. */
  bindMode: BindMode;
  /** Connections to this SMSC that share its messages (each with its own window and TPS). */
  binds: number;
  /** Outstanding requests per bind. */
  window: number;
  /** submit_sm per second per bind. */
  tps: number;
  messageIds: { submit: IdBase; receipt: IdBase };
  /** data_coding for texts in the GSM alphabet: 0 (SMSC default, the usual) or 1 (IA5) for SMSCs that want it. */
  dataCoding: 0 | 1;
  validityHours: number;
  /** The SMSC answers query_sm (asked before validity runs out when no receipt came). */
  querySm: boolean;
  /** With querySm: a message without a receipt this long after its submit is queried, and again as often. */
  querySmAfterMs: number;
  concatRefBits: 8 | 16;
  inboundDefaultAlphabet: InboundDefaultAlphabet;
  /** Refusing with system errors (ESME_RSYSERR) for this long counts as down: routes fail over. */
  failoverAfterMs: number;
  /** The tag of the optional parameter in which this SMSC names each MO with its own id (duplicates are recognised by it). */
  moIdTlv?: number;
}

export interface CarriersConfig {
  carriers: CarrierConfig[];
  routes: RouteRule[];
}

export class CarriersConfigError extends Error {}

type Env = Record<string, string | undefined>;
type Obj = Record<string, unknown>;

const ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const ID_BASES = ['auto', 'hex', 'decimal', 'string'] as const;

/** Defaults shared with the single-carrier SMPP_* variables. */
export interface CarrierDefaults {
  validityHours: number;
  concatRefBits: 8 | 16;
}

const KNOWN = new Set([
  'id', 'host', 'port', 'tls', 'system_id', 'password_env', 'system_type', 'bind_mode', 'binds', 'window', 'tps',
  'submit_id_base', 'receipt_id_base', 'data_coding', 'validity_hours', 'query_sm', 'concat_ref_bits',
  'inbound_default_alphabet', 'failover_after_seconds', 'query_sm_after_seconds', 'mo_id_tlv',
]);

function reader(where: string, o: Obj) {
  const fail = (field: string, what: string): never => { throw new CarriersConfigError(`${where}.${field} ${what}`); };
  const int = (field: string, def: number | undefined, min: number, max: number): number => {
    const v = o[field];
    if (v === undefined && def !== undefined) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) return fail(field, `must be a whole number from ${min} to ${max}`);
    return v;
  };
  const str = (field: string, def?: string): string => {
    const v = o[field];
    if (v === undefined && def !== undefined) return def;
    if (typeof v !== 'string' || v.trim() === '') return fail(field, 'must be a non-empty string');
    return v.trim();
  };
  const bool = (field: string, def: boolean): boolean => {
    const v = o[field];
    if (v === undefined) return def;
    if (typeof v !== 'boolean') return fail(field, 'must be true or false');
    return v;
  };
  const oneOf = <T extends string>(field: string, values: readonly T[], def: T): T => {
    const v = o[field] ?? def;
    if (!values.includes(v as T)) return fail(field, `must be one of ${values.join(', ')}`);
    return v as T;
  };
  return { fail, int, str, bool, oneOf };
}

function parseCarrier(raw: unknown, i: number, env: Env, defaults: CarrierDefaults): CarrierConfig {
  const where = `carriers[${i}]`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new CarriersConfigError(`${where} must be an object`);
  const o = raw as Obj;
  const r = reader(where, o);
  if ('password' in o) r.fail('password', 'is not read from the file: put the password in an environment variable and name it in password_env');
  const unknown = Object.keys(o).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) r.fail(unknown, 'is not a carrier field');
  const id = r.str('id');
  if (!ID.test(id)) r.fail('id', 'must be lower-case letters, digits, - or _ (at most 40)');
  const passwordEnv = r.str('password_env');
  const password = env[passwordEnv];
  if (password === undefined || password === '') r.fail('password_env', `names ${passwordEnv}, which is not set`);
  const validityHours = r.int('validity_hours', defaults.validityHours, 1, 99 * 24);
  const querySm = r.bool('query_sm', false);
  const submitIdBase = r.oneOf('submit_id_base', ID_BASES, 'auto');
  // query_sm names the id as the SMSC gave it, and 'auto' cannot say whether an all-digit id was hex or decimal.
  if (querySm && submitIdBase === 'auto') r.fail('submit_id_base', 'must be hex, decimal or string when query_sm is true (the id is sent back in the SMSC\'s form)');
  const querySmAfterMs = r.int('query_sm_after_seconds', Math.min(3600, validityHours * 1800), 1, validityHours * 3600 - 1) * 1000;
  return {
    id,
    host: r.str('host'),
    port: r.int('port', 2775, 1, 65535),
    tls: r.bool('tls', false),
    systemId: r.str('system_id'),
    password: password!,
    systemType: typeof o.system_type === 'string' ? o.system_type : r.str('system_type', ''),
    bindMode: r.oneOf('bind_mode', ['transceiver', 'transmitter_receiver'] as const, 'transceiver'),
    binds: r.int('binds', 1, 1, 64),
    window: r.int('window', 100, 1, 10_000),
    tps: r.int('tps', 100, 1, 1_000_000),
    messageIds: { submit: submitIdBase, receipt: r.oneOf('receipt_id_base', ID_BASES, 'auto') },
    dataCoding: r.int('data_coding', 0, 0, 1) as 0 | 1,
    validityHours,
    querySm,
    querySmAfterMs,
    concatRefBits: r.int('concat_ref_bits', defaults.concatRefBits, 8, 16) === 16 ? 16 : 8,
    inboundDefaultAlphabet: r.oneOf('inbound_default_alphabet', ['gsm', 'latin1'] as const, 'gsm'),
    failoverAfterMs: r.int('failover_after_seconds', 30, 1, 3600) * 1000,
    // Vendor-specific optional parameters are 0x1400-0x3FFF (SMPP 3.4 §5.3.2).
    ...('mo_id_tlv' in o ? { moIdTlv: r.int('mo_id_tlv', 0, 0x1400, 0x3fff) } : {}),
  };
}

/**
 * Parses a TASMAN_CARRIERS file: `{"carriers": [...], "routes": [...]}`. Every carrier a route names must exist;
 * ids are unique; with no routes, everything goes to the first carrier and then the others in file order.
 */
export function parseCarriersConfig(text: string, env: Env, defaults: CarrierDefaults): CarriersConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new CarriersConfigError(`is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new CarriersConfigError('must be a JSON object with "carriers" and "routes"');
  const o = doc as Obj;
  const extra = Object.keys(o).find((k) => k !== 'carriers' && k !== 'routes');
  if (extra !== undefined) throw new CarriersConfigError(`${extra} is not a top-level field (carriers, routes)`);
  if (!Array.isArray(o.carriers) || o.carriers.length === 0) throw new CarriersConfigError('carriers must be a non-empty array');
  const carriers = o.carriers.map((c, i) => parseCarrier(c, i, env, defaults));
  const seen = new Set<string>();
  for (const [i, c] of carriers.entries()) {
    if (seen.has(c.id)) throw new CarriersConfigError(`carriers[${i}].id "${c.id}" is used twice`);
    seen.add(c.id);
  }
  const routes = o.routes === undefined
    ? [{ carriers: carriers.map((c) => c.id) }]
    : parseRoutes(o.routes, seen);
  return { carriers, routes };
}

/** Reads the routes alone from a TASMAN_CARRIERS file (a reload: carriers need a restart, routes do not). */
export function parseRoutesOnly(text: string, carrierIds: Set<string>): RouteRule[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new CarriersConfigError(`is not valid JSON: ${(err as Error).message}`);
  }
  const routes = (doc as Obj | null)?.routes;
  if (routes === undefined) return [{ carriers: [...carrierIds] }];
  return parseRoutes(routes, carrierIds);
}
