// Why a link failed, in words an operator can act on: one line per failed try in the reconnect log, never a
// stack trace (the same refusal every few seconds is one fact, not a crash).
import { LinkError, MalformedPduError } from './errors.ts';
import { Status, statusName } from './pdu-types.ts';

/**
 * What the first octets of an unframeable stream say about the peer: a service that is not an SMSC often answers
 * our bind with its own protocol, whose first four octets read as an absurd command_length.
 */
export function recogniseForeignPeer(head: Buffer): string | null {
  const ascii = head.subarray(0, 8).toString('latin1');
  if (ascii.startsWith('HTTP/') || /^(GET|POST|PUT|HEAD) /.test(ascii)) return 'the peer answered HTTP, not SMPP';
  if (ascii.startsWith('SSH-')) return 'the peer is an SSH server, not an SMSC';
  if (/^(220|\* OK|\+OK)[ -]/.test(ascii)) return 'the peer answered a mail-server greeting, not SMPP';
  // A TLS record (handshake 0x16 or alert 0x15, version 3.x): the port wants TLS and we spoke plain SMPP.
  if ((head[0] === 0x15 || head[0] === 0x16) && head[1] === 0x03) return 'the peer answered TLS: set tls for this carrier';
  return null;
}

const SYSCALL_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens on that port)',
  ECONNRESET: 'the peer reset the connection',
  EPIPE: 'the peer closed the connection while we wrote',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  CERT_HAS_EXPIRED: 'the SMSC\'s TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the SMSC\'s TLS certificate is self-signed (give its CA)',
  SELF_SIGNED_CERT_IN_CHAIN: 'the SMSC\'s TLS certificate chain is not trusted (give its CA)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the SMSC\'s TLS certificate is not trusted (give its CA)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the SMSC\'s TLS certificate does not name this host',
};

/** The cause of a link failure in words: what the reconnect log prints. */
export function describeLinkFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  if (code && SYSCALL_WORDS[code]) return SYSCALL_WORDS[code];
  if (err instanceof MalformedPduError) return err.recognised ? err.message : `the peer sent bytes that are not SMPP (${err.message})`;
  if (err instanceof LinkError) {
    // A request the closing session failed: the session's reason is the cause worth naming.
    if (err.code === 'connection_lost' && err.cause instanceof Error) return describeLinkFailure(err.cause);
    if (err.code === 'response_timeout') return `the SMSC did not answer (${err.message})`;
    if (err.message === 'socket closed' || err.message.endsWith(': socket closed')) return 'the SMSC closed the connection';
    if (err.message === 'peer unbound') return 'the SMSC unbound';
  }
  return err.message;
}

const BIND_WORDS: Partial<Record<number, string>> = {
  [Status.ESME_RINVPASWD]: 'wrong password',
  [Status.ESME_RINVSYSID]: 'the SMSC does not know this system_id',
  [Status.ESME_RALYBND]: 'already bound (the SMSC allows fewer binds than configured)',
  [Status.ESME_RBINDFAIL]: 'the SMSC refused the bind',
};

/** A refused bind in words, with the status name an SMSC's operator will recognise. */
export function bindRefusal(status: number): string {
  const words = BIND_WORDS[status];
  return `bind refused: ${words ? `${words} (${statusName(status)})` : statusName(status)}`;
}
