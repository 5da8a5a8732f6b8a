// How a process's LISTEN connection names its channels in application_name, so that other processes can tell
// whether anyone else hears a NOTIFY (client.ts othersListen). PostgreSQL keeps 63 bytes of application_name and
// truncates the rest: a workers process listening on tasman_auth, tasman_messages_queued and tasman_webhooks
// needed 64, fell back to '*' ("every channel"), and so every other process kept sending NOTIFYs it could skip.
// Channels are therefore named without their common `tasman_` prefix (43 bytes for those three).

export const LISTENER_PREFIX = 'tasman listen ';
/** Listens on channels too many to name: counts as listening on every channel. */
export const LISTENER_ANY = `${LISTENER_PREFIX}*`;
const MAX_BYTES = 63;
const CHANNEL_PREFIX = 'tasman_';

/** A channel as it appears in a listener's name. */
export function channelToken(channel: string): string {
  return channel.startsWith(CHANNEL_PREFIX) ? channel.slice(CHANNEL_PREFIX.length) : channel;
}

/** The application_name of a LISTEN connection on these channels. */
export function listenerName(channels: Iterable<string>): string {
  const name = `${LISTENER_PREFIX}${[...channels].map(channelToken).join(' ')}`;
  return Buffer.byteLength(name) <= MAX_BYTES ? name : LISTENER_ANY;
}
