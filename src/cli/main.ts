import { ConfigError, loadConfig } from '../config.ts';
import { StartupError } from '../platform/startup-error.ts';

const USAGE = `Usage: tasman <command>

  start       run the API, the workers and (without SMPP_HOST) the built-in SMSC simulator
  migrate     apply database migrations and exit
  simulator   run the built-in SMSC simulator alone
  admin …     operator commands over the HTTP API (tasman admin help)
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      const { runStart } = await import('./start.ts');
      return runStart(loadConfig());
    }
    case 'migrate': {
      const config = loadConfig();
      const { openDatabase } = await import('../platform/db/client.ts');
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, postgresUser: config.postgresUser, connectTimeoutMs: config.databaseConnectTimeoutMs });
      await database.close();
      console.log(JSON.stringify({ ok: true, database: database.embedded ? 'embedded' : 'postgres' }));
      return 0;
    }
    case 'simulator': {
      const { runSimulator } = await import('./simulator.ts');
      return runSimulator(loadConfig());
    }
    case 'admin': {
      const { runAdmin } = await import('./admin.ts');
      return runAdmin(rest, loadConfig());
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command ? 0 : 1;
    default:
      process.stderr.write(`Unknown command "${command}"\n\n${USAGE}`);
      return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  if (code !== -1) process.exitCode = code;
}, (err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`tasman: invalid configuration: ${err.message}\n`);
  } else if (err instanceof StartupError) {
    process.stderr.write(`tasman: ${err.message}\n`);
  } else {
    process.stderr.write(`tasman: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  }
  // Exit now: a half-started process (a pool, a timer) must not linger after saying it failed.
  process.exit(1);
});
