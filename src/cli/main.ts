import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.ts';
import { StartupError } from '../platform/startup-error.ts';
import { CliError } from './cli-error.ts';
import { adminCommand } from './admin.ts';
import { mcpCommand } from './mcp.ts';
import { statusCommand } from './status.ts';

// The release is package.json's version (CHANGELOG.md has one entry per release); src/cli and dist/cli both sit two
// folders below it.
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

// Subcommands load their code (and read the environment) only in their action: `--help` starts nothing.
const program = new Command('tasman')
  .description('Tasman: an SMS service for Australian and New Zealand mobiles, over SMPP 3.4')
  .version(version, '-V, --version', 'print the release and exit')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

program.command('start').description('run the API, the workers and (without SMPP_HOST) the built-in SMSC simulator')
  .addHelpText('after', '\nEvery setting is an environment variable: see docs/operations.md.')
  .action(async () => {
    const { runStart } = await import('./start.ts');
    await runStart(loadConfig());
  });

program.command('migrate').description('apply database migrations and exit').action(async () => {
  const config = loadConfig();
  const { openDatabase } = await import('../platform/db/client.ts');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, postgresUser: config.postgresUser, connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  await database.close();
  console.log(JSON.stringify({ ok: true, database: database.embedded ? 'embedded' : 'postgres' }));
});

program.command('simulator').description('run the built-in SMSC simulator alone').action(async () => {
  const { runSimulator } = await import('./simulator.ts');
  await runSimulator(loadConfig());
});

program.addCommand(adminCommand());
program.addCommand(statusCommand());
program.addCommand(mcpCommand());

function fail(message: string): never {
  process.stderr.write(`tasman: ${message}\n`);
  // Exit now: a half-started process (a pool, a timer) must not linger after saying it failed.
  process.exit(1);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version are not failures; commander has already printed the usage error and the hint.
    process.exit(err.exitCode);
  }
  if (err instanceof ConfigError) fail(`invalid configuration: ${err.message}`);
  if (err instanceof StartupError || err instanceof CliError) fail(err.message);
  fail(err instanceof Error ? err.stack ?? err.message : String(err));
}
