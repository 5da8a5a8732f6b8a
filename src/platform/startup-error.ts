/**
 * Start-up cannot go on, for a reason the operator can fix: the message is one line that says what to do. The CLI
 * prints it without a stack trace and exits non-zero.
 */
export class StartupError extends Error {}

/** An address already taken, named by the setting that chose it. */
export function portInUse(err: unknown, setting: string, port: number): unknown {
  if ((err as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') return err;
  return new StartupError(`${setting} ${port} is already in use: stop the process using it or set ${setting} to a free port`);
}
