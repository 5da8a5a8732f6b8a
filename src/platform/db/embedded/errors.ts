import { StartupError } from '../../startup-error.ts';

/** The embedded server could not start: the message is one line saying what to do. */
export class EmbeddedPostgresError extends StartupError {}
