// The one TLS loader: a certificate chain and its private key read from files, checked to belong together, and
// re-read when either file changes, so a renewal (certbot swapping its symlinks, an operator copying new files)
// takes effect without a restart. Servers take what it loads (the HTTP API today; any other TLS listener reuses it).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { SecureContextOptions } from 'node:tls';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** What a TLS server is given: the chain, the key and the protocol floor. */
export interface TlsCredentials extends SecureContextOptions {
  cert: Buffer;
  key: Buffer;
  minVersion: 'TLSv1.2';
}

/** A summary for the log: which certificate is served, and until when. */
export interface TlsSummary {
  subject: string;
  valid_to: string;
  fingerprint256: string;
}

/** A certificate or key that cannot be served, in one line naming the setting and the file. */
export class TlsFileError extends Error {}

function readOne(setting: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new TlsFileError(`${setting} ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The first line of an OpenSSL or parser message, without the error-stack prefix. */
const reason = (err: unknown) => String((err as Error).message ?? err).split('\n')[0]!.replace(/^error:[0-9A-F]+:[^:]*:[^:]*:/, '');

/**
 * Reads and checks both files: the first certificate of the chain parses, the key parses, and the key is the
 * certificate's. Throws TlsFileError with one line otherwise.
 */
export function loadTls(files: TlsFiles): { credentials: TlsCredentials; summary: TlsSummary } {
  const cert = readOne('TLS_CERT_FILE', files.certFile);
  const key = readOne('TLS_KEY_FILE', files.keyFile);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new TlsFileError(`TLS_CERT_FILE ${files.certFile} holds no PEM certificate (${reason(err)})`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new TlsFileError(`TLS_KEY_FILE ${files.keyFile} holds no PEM private key (${reason(err)}); an encrypted key must be decrypted first`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new TlsFileError(`TLS_KEY_FILE ${files.keyFile} is not the private key of the certificate in TLS_CERT_FILE ${files.certFile}`);
  }
  return {
    credentials: { cert, key, minVersion: 'TLSv1.2' },
    summary: { subject: x509.subject.replace(/\n/g, ', '), valid_to: new Date(x509.validTo).toISOString(), fingerprint256: x509.fingerprint256 },
  };
}

export interface TlsWatchOptions {
  files: TlsFiles;
  /** Installs new credentials (an https server's setSecureContext). */
  apply(credentials: TlsCredentials): void;
  onReloaded(summary: TlsSummary): void;
  /** The files changed but do not hold a servable pair: the certificate in use stays. */
  onRejected(message: string): void;
  /** How often the files' status is read; default 2 s. */
  intervalMs?: number;
  /** Quiet time after a change before reading: a renewal writes the two files one after the other. Default 1 s. */
  settleMs?: number;
}

/**
 * Watches both files by polling their status (which follows symlinks, so a certbot `live/` link moved to a new
 * `archive/` file counts as a change) and reloads after they settle. Returns the stop.
 */
export function watchTls(options: TlsWatchOptions): () => void {
  const intervalMs = options.intervalMs ?? 2000;
  const settleMs = options.settleMs ?? 1000;
  let timer: NodeJS.Timeout | null = null;
  const reload = () => {
    timer = null;
    let loaded: ReturnType<typeof loadTls>;
    try {
      loaded = loadTls(options.files);
    } catch (err) {
      options.onRejected(err instanceof TlsFileError ? err.message : reason(err));
      return;
    }
    try {
      options.apply(loaded.credentials);
    } catch (err) {
      options.onRejected(`the server refused the new certificate (${reason(err)})`);
      return;
    }
    options.onReloaded(loaded.summary);
  };
  const changed = (now: { mtimeMs: number; size: number; ino: number }, before: { mtimeMs: number; size: number; ino: number }) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(reload, settleMs);
    timer.unref();
  };
  const watched = [...new Set([options.files.certFile, options.files.keyFile])];
  for (const file of watched) watchFile(file, { interval: intervalMs, persistent: false }, changed);
  return () => {
    for (const file of watched) unwatchFile(file, changed);
    if (timer) clearTimeout(timer);
    timer = null;
  };
}
