import path from 'node:path';

// The one place that reads process.env. Every variable is parsed here; a bad one stops start-up with one line
// that names it.

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** The account the embedded PostgreSQL runs as when Tasman runs as root (TASMAN_POSTGRES_USER). */
  postgresUser: string;
  /** Connections per process to PostgreSQL (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  redisUrl: string | null;
  adminToken: string | null;
  /** May read GET /metrics besides the operator token (METRICS_TOKEN). */
  metricsToken: string | null;
  smpp: {
    host: string | null;
    port: number;
    systemId: string;
    password: string;
    tls: boolean;
    window: number;
    tps: number;
    /** Concatenation reference width (SMPP_CONCAT_REF_BITS): 8, or 16 for the IE 0x08 element. */
    concatRefBits: 8 | 16;
  };
  sharedSender: { AU: string; NZ: string };
  optoutLinkBase: string;
  /** Where people reach this service (PUBLIC_URL): invite links start with it; https:// also marks cookies Secure. */
  publicUrl: string;
  webhook: {
    retryDelays: number[];
    timeoutMs: number;
    allowPrivate: boolean;
    /** WEBHOOK_HEADER_PREFIXES: each prefix P sends P-Event, P-Delivery and P-Signature (default X-Service,X-Texto). */
    headerPrefixes: string[];
  };
  /** CREDIT_PRICE_CENTS: what one credit costs; dedicated numbers' monthly dollar prices are charged in credits at it. */
  creditPriceCents: number;
  /** MAX_NUMBERS: most dedicated numbers an account may hold, unless the operator set its own max_numbers. */
  maxNumbers: number;
  secretKey: string | null;
  retentionDays: number;
  /**
   * MESSAGE_VALIDITY_HOURS: validity_period on every submit; a message still without a receipt this long (plus
   * an hour's grace) after it was sent ends as `unknown`.
   */
  messageValidityHours: number;
  rateLimit: { rps: number; concurrency: number };
  simulator: { port: number; controlPort: number; dlrDelayMs: number };
  logLevel: string;
  /** LOG_FORMAT: pretty (default on a terminal) or json (default otherwise). */
  logFormat: 'pretty' | 'json';
  /** TASMAN_SIMULATOR=true: run the built-in SMSC even with DATABASE_URL set (never in production). */
  simulatorAllowed: boolean;
  /** DATABASE_CONNECT_TIMEOUT (seconds, default 30): how long start-up retries a database that does not answer. */
  databaseConnectTimeoutMs: number;
  /** What `tasman start` runs in this process (TASMAN_ROLES=api,workers; default both). */
  roles: { api: boolean; workers: boolean };
  /** Development conveniences (generated admin token, simulator routes) are on with the embedded database. */
  embedded: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function str(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = str(env, name);
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

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const embedded = databaseUrl === null;
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const delaysRaw = str(env, 'WEBHOOK_RETRY_DELAYS') ?? '60,300';
  const retryDelays = delaysRaw.split(',').map((s) => s.trim());
  if (retryDelays.some((s) => !/^\d+(\.\d+)?$/.test(s))) {
    throw new ConfigError(`WEBHOOK_RETRY_DELAYS must be comma-separated seconds, got "${delaysRaw}"`);
  }
  const optoutLinkBase = url(env, 'OPTOUT_LINK_BASE', ['http:', 'https:'])
    ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/o`;
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  return {
    port,
    host,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './data'),
    databaseUrl,
    postgresUser: str(env, 'TASMAN_POSTGRES_USER') ?? 'nobody',
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 20, 1, 1000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    adminToken: str(env, 'TASMAN_ADMIN_TOKEN'),
    metricsToken: str(env, 'METRICS_TOKEN'),
    smpp: {
      host: str(env, 'SMPP_HOST'),
      port: int(env, 'SMPP_PORT', 2775, 1, 65535),
      systemId: str(env, 'SMPP_SYSTEM_ID') ?? 'tasman',
      password: str(env, 'SMPP_PASSWORD') ?? 'tasman',
      tls: bool(env, 'SMPP_TLS', false),
      window: int(env, 'SMPP_WINDOW', 100, 1, 10_000),
      tps: int(env, 'SMPP_TPS', 5000, 1, 1_000_000),
      concatRefBits: (() => {
        const bits = int(env, 'SMPP_CONCAT_REF_BITS', 8, 8, 16);
        if (bits !== 8 && bits !== 16) throw new ConfigError(`SMPP_CONCAT_REF_BITS must be 8 or 16, got ${bits}`);
        return bits;
      })(),
    },
    sharedSender: {
      AU: str(env, 'SHARED_SENDER_AU') ?? '+61480000000',
      NZ: str(env, 'SHARED_SENDER_NZ') ?? '+64220000000',
    },
    optoutLinkBase: optoutLinkBase.replace(/\/+$/, ''),
    webhook: {
      retryDelays: retryDelays.map(Number),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 1, 600_000),
      allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', embedded),
      headerPrefixes: (() => {
        const raw = str(env, 'WEBHOOK_HEADER_PREFIXES') ?? 'X-Service,X-Texto';
        const list = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
        if (list.length === 0 || list.some((p) => !/^[A-Za-z][A-Za-z0-9-]{0,40}$/.test(p))) {
          throw new ConfigError(`WEBHOOK_HEADER_PREFIXES must be comma-separated header name prefixes such as X-Service,X-Texto; got "${raw}"`);
        }
        return list;
      })(),
    },
    creditPriceCents: int(env, 'CREDIT_PRICE_CENTS', 3, 1, 1_000_000),
    maxNumbers: int(env, 'MAX_NUMBERS', 5, 0, 100_000),
    secretKey: str(env, 'TASMAN_SECRET_KEY'),
    retentionDays: int(env, 'RETENTION_DAYS', 90, 1, 36_500),
    // SMPP relative times count at most 99 days.
    messageValidityHours: int(env, 'MESSAGE_VALIDITY_HOURS', 48, 1, 99 * 24),
    rateLimit: {
      rps: int(env, 'RATE_LIMIT_RPS', 50, 1, 1_000_000),
      concurrency: int(env, 'RATE_LIMIT_CONCURRENCY', 25, 1, 1_000_000),
    },
    simulator: {
      port: int(env, 'SIM_PORT', 2775, 0, 65535),
      controlPort: int(env, 'SIM_CONTROL_PORT', 2776, 0, 65535),
      dlrDelayMs: int(env, 'SIM_DLR_DELAY_MS', 200, 0, 3_600_000),
    },
    logLevel: (() => {
      const level = str(env, 'LOG_LEVEL') ?? 'info';
      if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) {
        throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${level}"`);
      }
      return level;
    })(),
    roles: (() => {
      const raw = (str(env, 'TASMAN_ROLES') ?? 'api,workers').split(',').map((r) => r.trim());
      const unknown = raw.filter((r) => r !== 'api' && r !== 'workers');
      if (unknown.length > 0 || raw.length === 0) {
        throw new ConfigError(`TASMAN_ROLES must list api and/or workers, got "${env.TASMAN_ROLES}"`);
      }
      return { api: raw.includes('api'), workers: raw.includes('workers') };
    })(),
    logFormat: (() => {
      const format = str(env, 'LOG_FORMAT') ?? (process.stdout.isTTY ? 'pretty' : 'json');
      if (format !== 'pretty' && format !== 'json') throw new ConfigError(`LOG_FORMAT must be pretty or json, got "${format}"`);
      return format;
    })(),
    simulatorAllowed: bool(env, 'TASMAN_SIMULATOR', false),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT', 30, 0, 3600) * 1000,
    embedded,
  };
}
