import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const adminTokenFile = (dataDir: string) => path.join(dataDir, 'admin.token');

/** The embedded default needs no setup: a token is generated once into DATA_DIR and reused on every start. */
export function loadOrCreateAdminToken(dataDir: string): { token: string; created: boolean } {
  const file = adminTokenFile(dataDir);
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), created: false };
  mkdirSync(dataDir, { recursive: true });
  const token = `tsa_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, created: true };
}

export function readAdminToken(dataDir: string): string | null {
  const file = adminTokenFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}
