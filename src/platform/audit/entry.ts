import type { Actor } from '../actor.ts';

/** Who did it: a signed-in user, an API key, the operator, Tasman itself (a background job), or nobody known yet. */
export type AuditActorType = 'user' | 'key' | 'operator' | 'system' | 'anonymous';

export interface AuditActor {
  type: AuditActorType;
  /** the user's, key's or named operator's id; null for the bootstrap operator token, the system and an anonymous caller */
  id: string | null;
  /** the user's email, the key's shown prefix (looked up when null), the operator's name (`operator` for the bootstrap token), or the job's name */
  label: string | null;
  /** the request's source address (Fastify's request.ip, after TRUST_PROXY); null off the HTTP path */
  address: string | null;
}

export type AuditOutcome = 'ok' | 'refused';

/** One entry: what `record` writes in the caller's transaction. */
export interface AuditEntry {
  /** the account the change belongs to; null for an operator-wide change */
  accountId: string | null;
  actor: Actor | AuditActor;
  /** a dotted name: `key.created`, `webhook.secret_rotated`, `team.member_removed` */
  action: string;
  target?: { type: string; id: string | null } | null;
  outcome?: AuditOutcome;
  /** for a refusal: the error code it was answered with */
  reason?: string | null;
  /** the changed fields as they were (null for a creation), redacted before they are stored */
  before?: Record<string, unknown> | null;
  /** the changed fields as they are now (null for a removal), redacted before they are stored */
  after?: Record<string, unknown> | null;
}

/** The refusals the audit log records: a caller tried something beyond its rights (not a CSRF slip, not a typo). */
export const REFUSAL_CODES: ReadonlySet<string> = new Set(['permission_denied', 'insufficient_scope', 'forbidden']);

const isRequestActor = (a: Actor | AuditActor): a is Actor => 'keyId' in a;

/** The audit actor of a request's caller: the signed-in user, else the API key. */
export function auditActor(actor: Actor | AuditActor): AuditActor {
  if (!isRequestActor(actor)) return actor;
  const address = actor.address ?? null;
  if (actor.user) return { type: 'user', id: actor.user.id, label: actor.user.email, address };
  return { type: 'key', id: actor.keyId, label: null, address };
}

/**
 * The operator, through the operator token or the console (the CLI's `tasman admin` calls the same API): a named
 * operator by their id and name, the bootstrap token as `operator`.
 */
export const operatorActor = (address: string | null, named?: { id: string; name: string }): AuditActor =>
  ({ type: 'operator', id: named?.id ?? null, label: named?.name ?? 'operator', address });

/** Tasman itself: a background job (`number-renewal`, `retention`). */
export const systemActor = (job: string): AuditActor => ({ type: 'system', id: null, label: job, address: null });
