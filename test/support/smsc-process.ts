// SMSCs as processes of their own for carrier tests: the npm `smpp` server (test/carrier/npm-smsc-process.mjs),
// `tasman simulator`, Debian's Net::SMPP (test/carrier/perl/smsc.pl). Each prints a line naming its port once it
// listens; every line it writes is kept for the test to read.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pollUntil } from './poll.ts';

export interface SmscProcess {
  port: number;
  lines: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Writes one line to its stdin (the npm SMSC's `DELIVER` command). */
  send(line: string): void;
}

/** Registers a cleanup (the test file's afterEach list). */
type Cleanup = (c: () => Promise<unknown>) => void;

/** A child process that prints a line matching `ready` (with the port in its first group) once it listens. */
export async function smscChild(command: string, args: string[], env: Record<string, string>, ready: RegExp, cleanup: Cleanup, lines: string[] = []): Promise<SmscProcess> {
  const proc = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  proc.stdin.on('error', () => {});
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => { if (proc.exitCode === null && proc.signalCode === null) { proc.kill(signal); await exited; } };
  cleanup(() => stop('SIGKILL'));
  createInterface({ input: proc.stdout }).on('line', (l) => lines.push(l));
  // Generous: a loaded two-core machine takes seconds to start node (and tasman's CLI compiles nothing, but loads a lot).
  const line = await pollUntil(async () => lines.find((l) => ready.test(l)), Boolean, `${[command, ...args].join(' ')} listening`, 60_000);
  return { port: Number(ready.exec(line!)![1]), lines, kill: stop, send: (l) => proc.stdin.write(`${l}\n`) };
}

const npmSmscScript = fileURLToPath(new URL('../carrier/npm-smsc-process.mjs', import.meta.url));
const perlSmscScript = fileURLToPath(new URL('../carrier/perl/smsc.pl', import.meta.url));
const tasmanBin = fileURLToPath(new URL('../../bin/tasman.js', import.meta.url));

/** The npm `smpp` server in a process: env as npm-smsc-process.mjs documents (SMSC_RECEIPTS, SMSC_MESSAGE_ID…). */
export const npmSmscProcess = (cleanup: Cleanup, env: Record<string, string> = {}, lines?: string[]) =>
  smscChild(process.execPath, [npmSmscScript], { SMSC_PORT: '0', ...env }, /^LISTENING (\d+)$/, cleanup, lines);

/** Net::SMPP's SMSC in a process (`SUBMIT … dst=…` lines). */
export const perlSmscProcess = (cleanup: Cleanup) => smscChild('perl', [perlSmscScript], {}, /^LISTENING (\d+)$/, cleanup);

/** `tasman simulator` with SIM_CARRIERS of them; `port` is the first (`default`, or `sim1`), the log line `smscs` names every one. */
export const simulatorProcess = (cleanup: Cleanup, env: Record<string, string> = {}) => smscChild(process.execPath, [tasmanBin, 'simulator'], {
  SIM_CARRIERS: '1', SIM_PORT: '0', SIM_CONTROL_PORT: '0', SIM_DLR_DELAY_MS: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env,
}, /"smscs":\{"[^"]+":"127\.0\.0\.1:(\d+)"/, cleanup);
