import { Command } from 'commander';
import { operatorRequest } from './admin.ts';
import { CliError } from './cli-error.ts';
import { table } from './format.ts';

interface Status { status: string; timestamp: string; version: string; services: Record<string, string> }
interface Pipeline {
  queues: Array<{ queue: string; depth: number; oldest_seconds: number }>;
  carriers: Array<{ name: string; bound: boolean; address: string | null }>;
  carriers_checked: boolean;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await operatorRequest('GET', path);
  if (res.status >= 300) {
    throw new CliError(`GET ${path} answered ${res.status}: ${res.text}`);
  }
  return JSON.parse(res.text) as T;
}

/** What a person reads: the state and each service's, then the queues, then the carriers this API answers for. */
export function formatStatus(status: Status, pipeline: Pipeline): string {
  const services = Object.entries(status.services).map(([name, state]) => [name, state]);
  const carriers = pipeline.carriers_checked
    ? table(['CARRIER', 'BOUND', 'ADDRESS'], pipeline.carriers.map((c) => [c.name, c.bound ? 'yes' : 'no', c.address ?? '']))
    : 'Carriers: none here (an API-only service: the carrier link runs in another service on the database)';
  return [
    `Tasman ${status.version}: ${status.status} at ${status.timestamp}`,
    '',
    table(['SERVICE', 'STATE'], services),
    '',
    table(['QUEUE', 'WAITING', 'OLDEST (s)'], pipeline.queues.map((q) => [q.queue, q.depth, q.oldest_seconds])),
    '',
    carriers,
  ].join('\n');
}

/** `tasman status`: the service's state, its queues and carriers, through the operator API. */
export function statusCommand(): Command {
  return new Command('status')
    .description('the service\'s state, its queues and its carriers, from a running Tasman (TASMAN_URL, the operator token)')
    .option('--json', 'one JSON object for scripts: GET /status with the queues and carriers of GET /admin/health')
    .addHelpText('after', '\nExits 0 when operational, 3 when degraded, 1 (one line on stderr) when Tasman cannot be asked or refuses.')
    .action(async (options: { json?: boolean }) => {
      const [status, pipeline] = await Promise.all([getJson<Status>('/status'), getJson<Pipeline>('/admin/health')]);
      process.stdout.write(`${options.json ? JSON.stringify({ ...status, ...pipeline }) : formatStatus(status, pipeline)}\n`);
      if (status.status !== 'operational') process.exitCode = 3;
    });
}
