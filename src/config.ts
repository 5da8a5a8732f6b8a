import { availableParallelism } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { Static, TBoolean, TInteger, TLiteral, TObject, TOptional, TProperties, TSchema, TString, TUnion } from 'typebox';
import { DEFAULT_CARRIER } from './carrier/carrier.ts';
import { parseCarriersConfig, type CarrierConfig, type CarriersConfig } from './carrier/carriers-config.ts';
import { splitHosts, withHosts } from './platform/db/hosts.ts';
import { parseKey } from './platform/crypto/secret-box.ts';

// The one place that reads process.env. Every variable is declared once in ENV below (type, default, bounds,
// description); docs/operations.md's table is checked against it (src/config.test.ts). A bad value stops start-up
// with one line that names it. To add a variable: one line in ENV, one use in loadConfig, one row in the docs.

// Plain JSON Schema objects under typebox's types: typebox itself (hundreds of modules) is not loaded by a process
// that only reads its configuration, such as the cluster's primary.
const int = (def: number, minimum: number, maximum: number, description: string) =>
  ({ type: 'integer', default: def, minimum, maximum, description }) as unknown as TInteger;
const text = (def: string, description: string) => ({ type: 'string', default: def, description }) as unknown as TString;
const optionalOf = <T extends TSchema>(schema: T) => schema as unknown as TOptional<T>;
/** Unset by default; `docDefault` is what the operations table says instead of "unset". */
const optional = (description: string, docDefault?: string) =>
  optionalOf({ type: 'string', description, ...(docDefault ? { docDefault } : {}) } as unknown as TString);
const flag = (def: boolean, description: string, docDefault?: string) =>
  ({ type: 'boolean', default: def, description, ...(docDefault ? { docDefault } : {}) }) as unknown as TBoolean;
const oneOf = <const T extends string[]>(values: T, def: T[number], description: string, docDefault?: string) =>
  ({ anyOf: values.map((v) => ({ type: 'string', const: v })), default: def, description, ...(docDefault ? { docDefault } : {}) }) as unknown as
    TUnion<{ [K in keyof T]: TLiteral<T[K]> }>;
const object = <P extends TProperties>(properties: P) => ({ type: 'object', properties }) as unknown as TObject<P>;

/** Every environment variable Tasman reads. */
export const ENV = object({
  PORT: int(3000, 0, 65535, 'HTTP port'),
  HOST: text('127.0.0.1', 'HTTP bind address (`0.0.0.0` to serve other hosts)'),
  TLS_CERT_FILE: optional('with `TLS_KEY_FILE`: serve HTTPS (TLS 1.2 or later) with this PEM certificate chain, re-read when it changes (see "HTTPS without a proxy")', 'unset: plain HTTP'),
  TLS_KEY_FILE: optional('the PEM private key of `TLS_CERT_FILE` (unencrypted), re-read when it changes', 'unset: plain HTTP'),
  DATA_DIR: text('./data', 'embedded database, generated operator token and secret key'),
  DATABASE_URL: optional('PostgreSQL; unset means the embedded PostgreSQL in `DATA_DIR/postgres`. Several hosts (`postgres://u@h1:5432,h2:5432/db`): a primary and its standbys, Tasman writes to the writable one'),
  DATABASE_HOSTS: optional('`host:port,host:port`: the hosts of a primary and its standbys, replacing the host of `DATABASE_URL` (see "Database failover")'),
  TASMAN_POSTGRES_USER: text('nobody', 'the account the embedded PostgreSQL runs as when Tasman runs as root'),
  DATABASE_POOL_SIZE: int(20, 1, 1000, 'PostgreSQL connections per process'),
  REDIS_URL: optional('shares per-key rate limits across instances'),
  TASMAN_ADMIN_TOKEN: optional('operator API token; with `DATABASE_URL` and no token the operator API is disabled', 'generated when embedded'),
  METRICS_TOKEN: optional('a bearer token that may read `GET /metrics` besides the operator token'),
  TASMAN_ROLES: text('api,workers', 'what this process runs'),
  TASMAN_WORKERS: optional('API processes `tasman start` runs on one port, beside one process for the workers role; 0 runs every role in one process', 'the number of CPU cores, less one for the workers process when it runs'),
  TASMAN_CARRIERS: optional('a JSON file of carriers (several SMSCs, binds, TPS) and routes; replaces the `SMPP_*` variables (see "Several carriers")'),
  SMPP_HOST: optional('the carrier\'s SMSC; unset (and no `TASMAN_CARRIERS`) starts the built-in simulator'),
  SMPP_PORT: int(2775, 1, 65535, 'the SMSC\'s port'),
  SMPP_SYSTEM_ID: text('tasman', 'bind credentials'),
  SMPP_PASSWORD: text('tasman', 'bind credentials'),
  SMPP_TLS: flag(false, 'TLS to the SMSC, certificates verified'),
  SMPP_WINDOW: int(100, 1, 10_000, 'outstanding requests'),
  SMPP_TPS: int(5000, 1, 1_000_000, 'submissions per second'),
  SMPP_CONCAT_REF_BITS: oneOf(['8', '16'], '8', 'concatenation reference of long messages: 8 (IE 0x00) or 16 (IE 0x08)'),
  SMPP_SUBMIT_ID_BASE: oneOf(['auto', 'hex', 'decimal', 'string'], 'auto', 'how the SMSC writes message ids in submit_sm_resp'),
  SMPP_RECEIPT_ID_BASE: oneOf(['auto', 'hex', 'decimal', 'string'], 'auto', 'how the SMSC writes message ids in receipts'),
  SMPP_INBOUND_DEFAULT_ALPHABET: oneOf(['gsm', 'latin1'], 'gsm', 'what data_coding 0 means in inbound messages'),
  SMPP_SERVER_PORT: optionalOf({ type: 'integer', minimum: 0, maximum: 65535, description: 'the SMPP server for customers\' own SMPP clients (docs/smpp-server.md), in the workers role; unset: off' } as unknown as TInteger),
  SMPP_SERVER_HOST: text('127.0.0.1', 'the SMPP server\'s bind address (`0.0.0.0` to serve other hosts)'),
  SMPP_SERVER_TLS_CERT: optional('a PEM certificate file: with `SMPP_SERVER_TLS_KEY`, the SMPP server speaks TLS only'),
  SMPP_SERVER_TLS_KEY: optional('the PEM private key file of `SMPP_SERVER_TLS_CERT`'),
  SMPP_SERVER_WINDOW: int(10, 1, 1000, 'submit_sm a customer\'s bind may have unanswered; more answer ESME_RTHROTTLED'),
  SMPP_SERVER_QUEUE_HOURS: int(72, 1, 720, 'receipts and inbound messages wait this many hours for a customer\'s receiving SMPP bind, then are dropped'),
  SMPP_SERVER_DEFAULT_ALPHABET: oneOf(['gsm', 'latin1'], 'gsm', 'what data_coding 0 means in a customer\'s submit_sm: gsm or latin1'),
  SHARED_SENDER_AU: text('+61480000000', 'the shared number used without a sender (AU)'),
  SHARED_SENDER_NZ: text('+64220000000', 'the shared number used without a sender (NZ)'),
  PUBLIC_URL: optional('where people reach Tasman: dashboard invite links start with it; `https://` marks the session cookies `Secure`', 'http://HOST:PORT'),
  OPTOUT_LINK_BASE: optional('base of `{{OptOutLink}}` links', 'http://HOST:PORT/o'),
  WEBHOOK_RETRY_DELAYS: text('60,300', 'seconds before attempts 2 and 3'),
  WEBHOOK_TIMEOUT_MS: int(15_000, 1, 600_000, 'per attempt'),
  WEBHOOK_ALLOW_PRIVATE: flag(false, 'allow http and private addresses (development)', 'true when embedded, else false'),
  WEBHOOK_HEADER_PREFIXES: text('X-Service,X-Texto', 'each prefix P sends P-Event, P-Delivery, P-Signature (same values)'),
  CREDIT_PRICE_CENTS: int(3, 1, 1_000_000, 'price of one credit; a number\'s monthly dollar price is charged in credits at it'),
  MAX_NUMBERS: int(5, 0, 100_000, 'dedicated numbers an account may hold, unless the operator set its `max_numbers`'),
  TASMAN_SECRET_KEY: optional('32 bytes (hex or base64) sealing webhook secrets', 'generated into DATA_DIR when embedded'),
  RETENTION_DAYS: int(90, 1, 36_500, 'message content older than this is deleted'),
  AUDIT_RETENTION_DAYS: int(400, 1, 36_500, 'audit log entries older than this are deleted'),
  // SMPP relative times count at most 99 days.
  MESSAGE_VALIDITY_HOURS: int(48, 1, 99 * 24, 'validity_period on every submit (1 to 2376); a message still without a receipt an hour after it ends as `expired` (`no_receipt`), checked every minute'),
  INBOUND_DEDUP_SECONDS: int(120, 0, 86_400, 'an MO the SMSC delivers again within this many seconds (same carrier, sender, number, text octets and part) is stored once (0: never deduplicated; decision 0068)'),
  PARKED_RECEIPT_MAX_AGE_HOURS: int(24, 1, 720, 'a receipt parked before its message was known and still held by no message after this many hours (1 to 720) is deleted; until then it is counted in `tasman_receipts_unmatched` and `GET /admin/carriers`'),
  RATE_LIMIT_RPS: int(50, 1, 1_000_000, 'requests per second per API key'),
  RATE_LIMIT_CONCURRENCY: int(25, 1, 1_000_000, 'concurrent requests per API key'),
  SMTP_URL: optional('sends invitations, password resets and low-balance notices (`smtp://user:pass@host:587`, `smtps://…:465`); unset keeps them in the outbox the operator reads (`GET /admin/outbox`) and logs their links', 'unset: the outbox'),
  MAIL_FROM: text('Tasman <no-reply@localhost>', 'the From of the mail Tasman sends'),
  HTTP_REQUEST_TIMEOUT: int(30, 1, 3600, 'seconds a client has to send a whole request, headers and body (headers alone: at most 10); a request that runs out is answered 408 and frees its API key\'s concurrency slot'),
  AUTH_FAILURE_LIMIT: int(20, 1, 1_000_000, 'failed sign-ins, operator-token, invite and reset-token attempts a minute from one address before its further failures answer 429'),
  TRUST_PROXY: optional('reverse proxies whose X-Forwarded-For is believed: addresses or CIDR ranges, or a hop count', 'off'),
  SIM_PORT: int(2775, 0, 65535, 'built-in simulator: SMPP port'),
  SIM_CONTROL_PORT: int(2776, 0, 65535, 'built-in simulator: control endpoint port (`tasman simulator`)'),
  SIM_DLR_DELAY_MS: int(200, 0, 3_600_000, 'built-in simulator: delay before a receipt'),
  SIM_CARRIERS: int(1, 1, 9, 'built-in simulator: how many SMSCs (carriers `sim1`, `sim2`… on consecutive ports from `SIM_PORT`, each the next one\'s backup)'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', 'fatal, error, warn, info, debug, trace or silent'),
  LOG_FORMAT: optionalOf(oneOf(['pretty', 'json'], 'json', '`pretty` (human, pino-pretty) or `json` (one JSON object a line)', 'pretty on a terminal, else json')),
  TASMAN_SIMULATOR: flag(false, 'with `DATABASE_URL` set and no `SMPP_HOST`, Tasman refuses to start unless this is true'),
  DATABASE_CONNECT_TIMEOUT: int(30, 0, 3600, 'seconds start-up retries a database that does not answer (with back-off) before giving up'),
  MCP_MAX_CREDITS_PER_CALL: int(50, 0, 100_000_000, 'most credits one MCP tool call may spend or move; a call that could exceed it is refused (`credit_limit_exceeded`)'),
});

export type EnvVars = Static<typeof ENV>;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

type Schema = TSchema & { type?: string; default?: unknown; minimum?: number; maximum?: number; anyOf?: Array<{ const: string }> };

/** One variable, read and checked against its schema; messages name the variable and what it must be. */
function read(env: Env, name: keyof EnvVars): unknown {
  const schema = ENV.properties[name] as Schema;
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return schema.default ?? null;
  if (schema.type === 'integer') {
    if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${env[name]}"`);
    const n = Number(raw);
    if (n < schema.minimum! || n > schema.maximum!) throw new ConfigError(`${name} must be between ${schema.minimum} and ${schema.maximum}, got ${n}`);
    return n;
  }
  if (schema.type === 'boolean') {
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
  }
  if (schema.anyOf) {
    const allowed = schema.anyOf.map((s) => s.const);
    if (!allowed.includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}; got "${raw}"`);
  }
  return raw;
}

/** Every variable of ENV read from `env`, typed by the schema. */
export function readEnv(env: Env = process.env): EnvVars {
  return Object.fromEntries(Object.keys(ENV.properties).map((name) => [name, read(env, name as keyof EnvVars)])) as EnvVars;
}

/** TASMAN_SECRET_KEY, read here so a malformed key is one line naming it before anything starts; blank is unset. */
function secretKey(raw: string | null | undefined): string | null {
  if (raw == null || raw.trim() === '') return null;
  try {
    parseKey(raw);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return raw;
}

function url(name: string, raw: string | null | undefined, protocols: string[]): string | null {
  if (raw === undefined) raw = null;
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
  }
  return raw;
}

/** DATABASE_URL, its hosts replaced by DATABASE_HOSTS; a host list is checked host by host. */
function databaseUrlOf(raw: string | null, hosts: string | null): string | null {
  if (raw === null) {
    if (hosts !== null) throw new ConfigError('DATABASE_HOSTS needs DATABASE_URL (for the user, password and database)');
    return null;
  }
  const hostList = (name: string, make: () => string[]) => {
    try {
      return make();
    } catch (err) {
      throw new ConfigError(`${name} must list its hosts as host:port separated by commas: ${(err as Error).message}`);
    }
  };
  for (const one of hostList('DATABASE_URL', () => splitHosts(raw))) url('DATABASE_URL', one, ['postgres:', 'postgresql:']);
  if (hosts === null) return raw;
  const combined = hostList('DATABASE_HOSTS', () => [withHosts(raw, hosts)])[0]!;
  for (const one of splitHosts(combined)) url('DATABASE_HOSTS', one, ['postgres:', 'postgresql:']);
  return combined;
}

/** The structured configuration every part of Tasman reads (its type is derived from ENV through loadConfig). */
/** TRUST_PROXY: off, a hop count, or proxy addresses and CIDR ranges. */
function trustProxy(raw: string | undefined): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || ['false', 'off', 'no', '0'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 100) throw new ConfigError(`TRUST_PROXY must be a hop count up to 100 or proxy addresses, got "${value}"`);
    return hops;
  }
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  // IPv4 or IPv6 addresses, optionally with a prefix length; anything else (true, a host name) is a mistake.
  const bad = list.find((entry) => !/^(\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)(\/\d{1,3})?$/.test(entry));
  if (bad !== undefined) throw new ConfigError(`TRUST_PROXY must be a hop count or proxy addresses (CIDR allowed), got "${bad}"`);
  return list;
}

/**
 * The carriers: TASMAN_CARRIERS, else the SMPP_* variables as one carrier `default`, else null (the built-in
 * simulator; compose builds its carriers from the ports it listens on).
 */
function loadCarriers(env: Env, e: EnvVars): { file: string | null; config: CarriersConfig | null } {
  const defaults = { validityHours: e.MESSAGE_VALIDITY_HOURS, concatRefBits: Number(e.SMPP_CONCAT_REF_BITS) as 8 | 16 };
  if (e.TASMAN_CARRIERS) {
    const file = path.resolve(e.TASMAN_CARRIERS);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`TASMAN_CARRIERS: cannot read ${file}: ${(err as Error).message}`);
    }
    try {
      return { file, config: parseCarriersConfig(text, env, defaults) };
    } catch (err) {
      throw new ConfigError(`TASMAN_CARRIERS (${file}): ${(err as Error).message}`);
    }
  }
  if (!e.SMPP_HOST) return { file: null, config: null };
  const carrier: CarrierConfig = {
    id: DEFAULT_CARRIER, host: e.SMPP_HOST, port: e.SMPP_PORT, tls: e.SMPP_TLS, systemId: e.SMPP_SYSTEM_ID,
    password: e.SMPP_PASSWORD, systemType: '', bindMode: 'transceiver', binds: 1, window: e.SMPP_WINDOW, tps: e.SMPP_TPS,
    messageIds: { submit: e.SMPP_SUBMIT_ID_BASE, receipt: e.SMPP_RECEIPT_ID_BASE }, dataCoding: 0,
    validityHours: e.MESSAGE_VALIDITY_HOURS, querySm: false, querySmAfterMs: 0, concatRefBits: defaults.concatRefBits,
    inboundDefaultAlphabet: e.SMPP_INBOUND_DEFAULT_ALPHABET, failoverAfterMs: 30_000,
  };
  return { file: null, config: { carriers: [carrier], routes: [{ carriers: [DEFAULT_CARRIER] }] } };
}

/**
 * TASMAN_CARRIERS read and checked again (the operator's carrier reload), with the same errors as at start-up;
 * passwords come from this process's environment, so a carrier naming a variable it lacks needs a restart.
 */
export function rereadCarriers(env: Env = process.env): CarriersConfig {
  const loaded = loadCarriers(env, readEnv(env));
  if (!loaded.file || !loaded.config) throw new ConfigError('TASMAN_CARRIERS is not set');
  return loaded.config;
}

/** TLS_CERT_FILE and TLS_KEY_FILE come together; their contents are checked at start-up (cli/start.ts preflight). */
function tlsFiles(cert: string | null, key: string | null): { certFile: string; keyFile: string } | null {
  if (cert === null && key === null) return null;
  if (cert === null || key === null) throw new ConfigError(`${cert === null ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is set without ${cert === null ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'}: set both to serve HTTPS, or neither`);
  return { certFile: path.resolve(cert), keyFile: path.resolve(key) };
}

/** SMPP_SERVER_*: off without a port; TLS needs both files, read here so a bad path stops start-up naming it. */
function smppServer(e: EnvVars) {
  if (e.SMPP_SERVER_PORT === undefined || e.SMPP_SERVER_PORT === null) return null;
  if (Boolean(e.SMPP_SERVER_TLS_CERT) !== Boolean(e.SMPP_SERVER_TLS_KEY)) {
    throw new ConfigError('SMPP_SERVER_TLS_CERT and SMPP_SERVER_TLS_KEY must be set together');
  }
  const file = (name: string, value: string): Buffer => {
    try {
      return readFileSync(path.resolve(value));
    } catch (err) {
      throw new ConfigError(`${name}: cannot read ${value}: ${(err as Error).message}`);
    }
  };
  return {
    port: e.SMPP_SERVER_PORT, host: e.SMPP_SERVER_HOST, window: e.SMPP_SERVER_WINDOW, defaultAlphabet: e.SMPP_SERVER_DEFAULT_ALPHABET,
    queueHours: e.SMPP_SERVER_QUEUE_HOURS,
    tls: e.SMPP_SERVER_TLS_CERT && e.SMPP_SERVER_TLS_KEY
      ? { cert: file('SMPP_SERVER_TLS_CERT', e.SMPP_SERVER_TLS_CERT), key: file('SMPP_SERVER_TLS_KEY', e.SMPP_SERVER_TLS_KEY) }
      : null,
  };
}

/**
 * TASMAN_WORKERS unset: one API process per core, less the core the workers process needs when it runs beside
 * them (at least one). On this project's two cores, with PostgreSQL on the same host, one API process beside the
 * workers measured 1.1–1.4× two of them end to end at three quarters of the CPU per message: each API process
 * group-commits alone, so two halve the batches, and the processes outnumbered the cores (decision 0020).
 */
export function defaultApiProcesses(cores: number, workersBeside: boolean): number {
  return Math.max(1, cores - (workersBeside ? 1 : 0));
}

/** TASMAN_WORKERS: how many API processes `tasman start` forks; 0 keeps every role in one process. */
function apiProcesses(raw: string | undefined, workersBeside: boolean): number {
  const value = raw?.trim() ?? '';
  if (value === '') return defaultApiProcesses(availableParallelism(), workersBeside);
  if (!/^\d+$/.test(value) || Number(value) > 256) throw new ConfigError(`TASMAN_WORKERS must be a whole number from 0 to 256, got "${value}"`);
  return Number(value);
}

export function loadConfig(env: Env = process.env) {
  const e = readEnv(env);
  const databaseUrl = databaseUrlOf(e.DATABASE_URL ?? null, e.DATABASE_HOSTS ?? null);
  const embedded = databaseUrl === null;
  const { PORT: port, HOST: host } = e;
  const retryDelays = e.WEBHOOK_RETRY_DELAYS.split(',').map((s) => s.trim());
  if (retryDelays.some((s) => !/^\d+(\.\d+)?$/.test(s))) {
    throw new ConfigError(`WEBHOOK_RETRY_DELAYS must be comma-separated seconds, got "${e.WEBHOOK_RETRY_DELAYS}"`);
  }
  const tls = tlsFiles(e.TLS_CERT_FILE ?? null, e.TLS_KEY_FILE ?? null);
  const here = `${tls ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const optoutLinkBase = url('OPTOUT_LINK_BASE', e.OPTOUT_LINK_BASE, ['http:', 'https:']) ?? `${here}/o`;
  const publicUrl = url('PUBLIC_URL', e.PUBLIC_URL, ['http:', 'https:']) ?? here;
  const headerPrefixes = e.WEBHOOK_HEADER_PREFIXES.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (headerPrefixes.length === 0 || headerPrefixes.some((p) => !/^[A-Za-z][A-Za-z0-9-]{0,40}$/.test(p))) {
    throw new ConfigError(`WEBHOOK_HEADER_PREFIXES must be comma-separated header name prefixes such as X-Service,X-Texto; got "${e.WEBHOOK_HEADER_PREFIXES}"`);
  }
  const roles = e.TASMAN_ROLES.split(',').map((r) => r.trim());
  if (roles.some((r) => r !== 'api' && r !== 'workers')) {
    throw new ConfigError(`TASMAN_ROLES must list api and/or workers, got "${env.TASMAN_ROLES}"`);
  }
  return {
    port,
    host,
    /** TLS_CERT_FILE and TLS_KEY_FILE: the API serves HTTPS with them (platform/tls.ts); null serves plain HTTP. */
    tls,
    /** Where people reach this service (PUBLIC_URL): invite links start with it; https:// also marks cookies Secure. */
    publicUrl: publicUrl.replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl,
    postgresUser: e.TASMAN_POSTGRES_USER,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: url('REDIS_URL', e.REDIS_URL, ['redis:', 'rediss:']),
    adminToken: e.TASMAN_ADMIN_TOKEN ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    smpp: {
      host: e.SMPP_HOST ?? null,
      port: e.SMPP_PORT,
      systemId: e.SMPP_SYSTEM_ID,
      password: e.SMPP_PASSWORD,
      tls: e.SMPP_TLS,
      window: e.SMPP_WINDOW,
      tps: e.SMPP_TPS,
      concatRefBits: Number(e.SMPP_CONCAT_REF_BITS) as 8 | 16,
      messageIds: { submit: e.SMPP_SUBMIT_ID_BASE, receipt: e.SMPP_RECEIPT_ID_BASE },
      inboundDefaultAlphabet: e.SMPP_INBOUND_DEFAULT_ALPHABET,
    },
    /** Tasman's SMPP server for customers' own SMPP clients; null: off. */
    smppServer: smppServer(e),
    /**
     * The SMSCs and routes: from TASMAN_CARRIERS, or SMPP_* as one carrier `default`; `config` null runs the
     * built-in simulator (SIM_CARRIERS of them). `file` is re-read when the operator reloads the routes.
     */
    carriers: { ...loadCarriers(env, e), simulated: e.SIM_CARRIERS },
    sharedSender: { AU: e.SHARED_SENDER_AU, NZ: e.SHARED_SENDER_NZ },
    optoutLinkBase: optoutLinkBase.replace(/\/+$/, ''),
    webhook: {
      retryDelays: retryDelays.map(Number),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE?.trim() ? e.WEBHOOK_ALLOW_PRIVATE : embedded,
      headerPrefixes,
    },
    creditPriceCents: e.CREDIT_PRICE_CENTS,
    maxNumbers: e.MAX_NUMBERS,
    secretKey: secretKey(e.TASMAN_SECRET_KEY),
    retentionDays: e.RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    /** validity_period on every submit; a message still without a receipt this long (plus an hour) ends expired. */
    messageValidityHours: e.MESSAGE_VALIDITY_HOURS,
    inboundDedupSeconds: e.INBOUND_DEDUP_SECONDS,
    /** A parked receipt no message holds is deleted after this long (receipts README). */
    parkedReceiptMaxAgeHours: e.PARKED_RECEIPT_MAX_AGE_HOURS,
    rateLimit: { rps: e.RATE_LIMIT_RPS, concurrency: e.RATE_LIMIT_CONCURRENCY },
    /** Where mail goes: an SMTP server (SMTP_URL), else the database's outbox for the operator. */
    mail: { smtpUrl: url('SMTP_URL', e.SMTP_URL, ['smtp:', 'smtps:']), from: e.MAIL_FROM },
    /** How long a client has to send a whole request (HTTP_REQUEST_TIMEOUT), in milliseconds. */
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT * 1000,
    /** Failed attempts at a secret per address per minute before further failures answer 429. */
    authFailureLimit: e.AUTH_FAILURE_LIMIT,
    /** Which reverse proxies' X-Forwarded-For to believe (per-client limits, request logs); false believes none. */
    trustProxy: trustProxy(e.TRUST_PROXY),
    simulator: { port: e.SIM_PORT, controlPort: e.SIM_CONTROL_PORT, dlrDelayMs: e.SIM_DLR_DELAY_MS },
    logLevel: e.LOG_LEVEL as string,
    /** LOG_FORMAT: pretty (default on a terminal) or json (default otherwise). */
    logFormat: (env.LOG_FORMAT?.trim() ? e.LOG_FORMAT : process.stdout.isTTY ? 'pretty' : 'json') as 'pretty' | 'json',
    /** TASMAN_SIMULATOR=true: run the built-in SMSC even with DATABASE_URL set (never in production). */
    simulatorAllowed: e.TASMAN_SIMULATOR,
    /** How long start-up retries a database that does not answer. */
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT * 1000,
    /** What `tasman start` runs in this process. */
    roles: { api: roles.includes('api'), workers: roles.includes('workers') },
    /** API processes `tasman start` runs on one port (TASMAN_WORKERS); 0: every role in this one process. */
    apiProcesses: apiProcesses(e.TASMAN_WORKERS, roles.includes('workers')),
    /** MCP guard rail: the most credits one tool call may spend or move. */
    mcp: { maxCreditsPerCall: e.MCP_MAX_CREDITS_PER_CALL },
    /** Development conveniences (generated admin token, simulator routes) are on with the embedded database. */
    embedded,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** `tasman mcp` (stdio): which Tasman to call (TASMAN_URL), with which key (TASMAN_API_KEY), and the same guard rail. */
export interface McpClientConfig {
  url: string;
  apiKey: string;
  maxCreditsPerCall: number;
}

export function loadMcpClientConfig(env: Env = process.env): McpClientConfig {
  const apiKey = env.TASMAN_API_KEY?.trim();
  if (!apiKey) throw new ConfigError('TASMAN_API_KEY must be set to the API key the agent will use');
  const base = url('TASMAN_URL', env.TASMAN_URL?.trim() || null, ['http:', 'https:']) ?? 'http://127.0.0.1:3000';
  return { url: base.replace(/\/+$/, ''), apiKey, maxCreditsPerCall: read(env, 'MCP_MAX_CREDITS_PER_CALL') as number };
}
