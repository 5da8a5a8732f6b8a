import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { livePostmaster } from '../../src/platform/db/embedded/process.ts';
import { startProcess, type TasmanProcess } from '../support/process.ts';

// Closing the terminal `npm start` runs in sends SIGHUP. Node's default for it is to die at once, which left the
// embedded PostgreSQL server running without its owner; Tasman stops as it does on Ctrl-C instead.
describe('tasman start on SIGHUP (the terminal closed)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-hup-'));
  const cluster = path.join(dataDir, 'postgres');
  let proc: TasmanProcess | null = null;
  afterAll(async () => {
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops cleanly, the embedded server with it: one process, then a cluster\'s primary', async () => {
    for (const workers of ['0', '1']) {
      proc = await startProcess({ DATA_DIR: dataDir, TASMAN_WORKERS: workers });
      expect(livePostmaster(cluster)).not.toBeNull();
      expect(await proc.stop('SIGHUP'), `TASMAN_WORKERS=${workers}`).toBe(0);
      expect(livePostmaster(cluster), `TASMAN_WORKERS=${workers}`).toBeNull();
      proc = null;
    }
  }, 400_000); // two starts, the first with initdb: minutes on a loaded machine
});
