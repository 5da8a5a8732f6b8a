import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/tasman.js', import.meta.url));

export interface TasmanProcess {
  url: string;
  child: ChildProcess;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `tasman start` as a real child process and resolves once it logs the address it listens on. */
export async function startProcess(env: Record<string, string>): Promise<TasmanProcess> {
  const child = spawn(process.execPath, [bin, 'start'], {
    env: { ...process.env, PORT: '0', SIM_PORT: '0', SIM_CONTROL_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tasman did not start:\n${logs.join('\n')}`)), 45_000);
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        logs.push(line);
        if (logs.length > 200) logs.shift();
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'tasman started' && entry.url) { clearTimeout(timer); resolve(entry.url); }
        } catch { /* not JSON */ }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`tasman exited with ${code}:\n${logs.join('\n')}`)); });
  });
  return {
    url, child, logs,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, 'exit') as [number | null];
      return code;
    },
  };
}
