/** A command cannot run, for a reason the user can fix: printed as one line, exit status 1, no stack trace. */
export class CliError extends Error {}
