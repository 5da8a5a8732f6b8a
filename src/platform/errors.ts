// Every error a service can raise, with its HTTP status. Services throw AppError(code); one handler in
// platform/http/errors.ts turns it into `{error, code}` with this status.
export const errorStatus = {
  /** body or query failed validation */
  validation_failed: 400,
  /** another client error raised by Fastify itself (answered with Fastify's own 4xx status, 400 by default) */
  bad_request: 400,
  /** the JSON body could not be parsed */
  invalid_json: 400,
  /** not an AU or NZ mobile number */
  invalid_number: 400,
  /** more than 1,600 characters after merge fields */
  message_too_long: 400,
  /** message is empty after merge fields */
  message_empty: 400,
  /** the recipient is on the account's opt-out list */
  recipient_opted_out: 400,
  /** the sender is neither a Sender ID registered to the account's ABN nor one of its numbers */
  sender_not_allowed: 400,
  /** a {{placeholder}} that no recipient's data and no service field can fill */
  unknown_merge_field: 400,
  /** strict_merge_fields: a recipient has no value for a field the text uses */
  merge_field_missing: 400,
  /** a batch with no valid recipient left */
  no_valid_recipients: 400,
  /** send_at without an offset, in the past, or more than 35 days ahead */
  invalid_send_at: 400,
  /** report or inbox filters that do not make sense together */
  invalid_range: 400,
  /** a webhook URL that is not an absolute http(s) URL with a host */
  invalid_webhook_url: 400,
  /** a webhook URL using http:// while private addresses are not allowed (production) */
  webhook_url_https_required: 400,
  /** a webhook URL whose host is, or resolves to, a private, loopback, link-local or metadata address (or does not resolve) */
  webhook_url_not_public: 400,
  /** a dashboard password that is too short, too common or contains the email */
  weak_password: 400,
  /** no, unknown or revoked API key */
  unauthorized: 401,
  /** dashboard sign-in: wrong email or password, or wrong operator token */
  invalid_credentials: 401,
  /** dashboard sign-in's second step: a wrong or already used authentication code or recovery code */
  invalid_code: 401,
  /** not enough credits; carries credits_required and credits_available */
  insufficient_credits: 402,
  /** the account may not do this (closed, suspended) */
  forbidden: 403,
  /** account hierarchy is not enabled for this account */
  hierarchy_not_enabled: 403,
  /** the sub-account manages itself; the parent may not change this */
  not_managed_by_parent: 403,
  /** the account already holds its max_numbers dedicated numbers */
  number_limit_reached: 403,
  /** only a parent account may do this */
  not_a_parent: 403,
  /** a write through a session cookie without the session's X-CSRF-Token header */
  csrf_failed: 403,
  /** the signed-in user lacks can_send or can_billing for this */
  permission_denied: 403,
  /** the account requires a second factor and the signed-in user has none yet: only enrolling (/two-factor) is open */
  two_factor_required: 403,
  /** the API key lacks the scope (read, send, manage) this route or tool needs */
  insufficient_scope: 403,
  /** an MCP tool call would spend more credits than MCP_MAX_CREDITS_PER_CALL allows; the agent must ask its user */
  credit_limit_exceeded: 403,
  /** missing, or not visible to the caller (never says which) */
  not_found: 404,
  /** secret rotation before the webhook's URL was set with PUT */
  webhook_not_configured: 404,
  /** an invite link that is unknown, used or expired */
  invite_invalid: 404,
  /** a password reset link that is unknown, used or expired */
  reset_invalid: 404,
  /** the route does not exist */
  route_not_found: 404,
  /** method not allowed on this route */
  method_not_allowed: 405,
  /** an account user with that email already exists */
  email_taken: 409,
  /** the number is held by another account */
  number_unavailable: 409,
  /** the same Idempotency-Key is still being processed */
  idempotency_in_flight: 409,
  /** a webhook delivery is being attempted right now; redeliver once the attempt has finished */
  delivery_in_progress: 409,
  /** only a scheduled message can be cancelled; this one is already queued, sent or finished */
  not_scheduled: 409,
  /** a row with these unique values already exists */
  conflict: 409,
  /** a contact with that phone number already exists in the account */
  contact_exists: 409,
  /** request body over the size limit */
  payload_too_large: 413,
  /** body sent with a content type other than JSON */
  unsupported_media_type: 415,
  /** the Idempotency-Key was used before with a different request */
  idempotency_mismatch: 422,
  /** over the per-key request rate */
  rate_limited: 429,
  /** over the per-key concurrent request limit */
  concurrency_limited: 429,
  /** failed sign-ins for this email (from a browser not signed in to it before): wait before the next try (Retry-After) */
  login_locked: 429,
  /** more than AUTH_FAILURE_LIMIT failed sign-ins or token attempts from this address this minute (Retry-After) */
  too_many_failures: 429,
  /** the sub-account's daily send limit is used up */
  daily_limit_exceeded: 429,
  /** something we did not expect; logged with the request id */
  internal_error: 500,
  /** a dependency (database) is unavailable */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);
