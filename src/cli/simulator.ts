import type { Config } from '../config.ts';

export async function runSimulator(_config: Config): Promise<number> {
  process.stderr.write('tasman simulator: not available yet\n');
  return 1;
}
