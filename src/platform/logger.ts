import pino from 'pino';
import { REDACT_PATHS, redactError } from './log-redaction.ts';

export type Logger = pino.Logger;

/** Lines wait until this many bytes are buffered, or at most FLUSH_MS. */
const MIN_WRITE_BYTES = 8192;
const FLUSH_MS = 200;

/**
 * stdout through an asynchronous buffered writer: a synchronous write per line cost a quarter of the API's CPU
 * under load, and even asynchronous writes of a few lines each were 8% of its busy time (both measured,
 * decision 0045); so lines are written 8 kB at a time, and at least every 200 ms when traffic is light.
 */
function bufferedStdout(): pino.DestinationStream & { flushSync(): void } {
  const out = pino.destination({ dest: 1, sync: false, minLength: MIN_WRITE_BYTES });
  let pending = false; // a flush with nothing buffered would still write (an empty string)
  const write = out.write.bind(out);
  out.write = (line: string) => { pending = true; return write(line); };
  setInterval(() => {
    if (!pending) return;
    pending = false;
    try { out.flush(); } catch { /* closed */ }
  }, FLUSH_MS).unref();
  return out;
}

/** A logger on stdout (or the given destination); whatever is buffered is written out when the process exits. */
export function createLogger(
  level: string, destination: pino.DestinationStream & { flushSync?(): void } = bufferedStdout(),
): Logger {
  // Keys, secrets, message bodies, phone numbers, webhook URLs and key hashes never reach the logs: request logging
  // records method, route and status only, these paths are redacted wherever an object is logged whole, and
  // errors are logged through redactError (log-redaction.ts).
  const logger = pino({
    level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'tasman' },
    serializers: { err: redactError, error: redactError },
  }, destination);
  // A crash must not lose the lines that explain it.
  process.once('exit', () => { try { destination.flushSync?.(); } catch { /* already closed */ } });
  return logger;
}

/**
 * The same logger without redaction, for lines whose every field is chosen and known safe (the request line:
 * method, path, status, address, time): redacting 30 paths cost about 12 µs a line, most of a line's price.
 * Anything that logs a whole object or an error keeps the redacting logger.
 */
export function unredacted(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}

/**
 * Fastify's `childLoggerFactory`: a request's logger (a pino child carrying its reqId) made only when something
 * logs through it. A child per request was measurable CPU under load, and most requests log nothing but their
 * request line, which app.ts writes with the reqId as a field instead. A class, so a request's stand-in is one
 * small object (an object literal with seven closures and an accessor per request cost more than its lines).
 */
export function lazyChild(parent: Logger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): Logger {
  return new LazyChild(parent, bindings, options) as unknown as Logger;
}

class LazyChild {
  private real: Logger | null = null;
  constructor(private readonly parent: Logger, private readonly childBindings: pino.Bindings, private readonly options: pino.ChildLoggerOptions) {}
  private get(): Logger { return (this.real ??= this.parent.child(this.childBindings, this.options)); }
  fatal(...args: unknown[]): void { (this.get().fatal as (...a: unknown[]) => void)(...args); }
  error(...args: unknown[]): void { (this.get().error as (...a: unknown[]) => void)(...args); }
  warn(...args: unknown[]): void { (this.get().warn as (...a: unknown[]) => void)(...args); }
  info(...args: unknown[]): void { (this.get().info as (...a: unknown[]) => void)(...args); }
  debug(...args: unknown[]): void { (this.get().debug as (...a: unknown[]) => void)(...args); }
  trace(...args: unknown[]): void { (this.get().trace as (...a: unknown[]) => void)(...args); }
  silent(...args: unknown[]): void { (this.get().silent as (...a: unknown[]) => void)(...args); }
  child(b: pino.Bindings, o?: pino.ChildLoggerOptions): Logger { return this.get().child(b, o); }
  get level(): string { return this.real?.level ?? this.options.level ?? this.parent.level; }
  set level(value: string) { this.get().level = value; }
  isLevelEnabled(level: string): boolean { return (this.real ?? this.parent).isLevelEnabled(level); }
  bindings(): pino.Bindings { return { ...this.parent.bindings(), ...this.childBindings }; }
}
