// Error types the session and client use to tell the carrier whether a failure is worth retrying.

/** The byte stream broke the framing or PDU grammar: the session must close, the link is not trustworthy. */
export class MalformedPduError extends Error {
  override name = 'MalformedPduError';
  /** true when the octets were recognised as another protocol (the message then says which, in words). */
  constructor(message: string, readonly recognised = false) {
    super(message);
  }
}

/**
 * A failure of the link, not of the message: connection lost, response timed out, not bound. The SMSC may or
 * may not have accepted the PDU, so the caller retries later (at-least-once).
 */
export class LinkError extends Error {
  override name = 'LinkError';
  constructor(message: string, readonly code: 'connection_lost' | 'response_timeout' | 'not_bound' | 'closed', cause?: Error) {
    super(message, cause ? { cause } : undefined);
  }
}
