import type { Database, Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { record } from '../../platform/audit/record.ts';
import type { AuditActor } from '../../platform/audit/entry.ts';
import type { AddressThrottle } from '../../platform/http/address-throttle.ts';
import type { BindAnswer, BindAttempt, BoundCredential, EsmeGateway, SubmitAnswer, Submission } from '../../carrier/esme-port.ts';
import type { MessageService } from '../messages/messages.service.ts';
import { AUTH_CHANGED_CHANNEL } from '../keys/authenticator.ts';
import { addressAllowed, passwordMatches } from './credential-secret.ts';
import { findCredentialById, findCredentialBySystemId, touchCredential, type CredentialForBind } from './smpp-binds.repo.ts';
import { claimDeliveries, deleteDeliveries, insertPart, insertSubmit, releaseDeliveries } from './smpp-queue.repo.ts';
import { insertValidity } from './smpp-validity.repo.ts';

/** The longest a bound credential's actor (its account's status, settings, limits) is used without being read again. */
const ACTOR_TTL_MS = 5_000;

export interface SmppGatewayDeps {
  db: Db;
  messages: Pick<MessageService, 'send'>;
  /** Failed binds count per address with failed sign-ins (AUTH_FAILURE_LIMIT a minute). */
  addressThrottle: Pick<AddressThrottle, 'failed'>;
  /** SMPP_SERVER_QUEUE_HOURS: a delivery no bind took within this long is no longer sent. */
  queueHours: number;
  /** LISTEN: a change to a key or an account (migration 0021's triggers) drops the cached actors. */
  listen?: Database['listen'];
  now?: () => Date;
}

const auditActorOf = (credential: { id: string; systemId: string }, address: string): AuditActor =>
  ({ type: 'key', id: credential.id, label: `smpp:${credential.systemId}`, address });

/**
 * The ESME port (carrier/esme-port.ts) on Tasman's services: a bind is authenticated against the account's SMPP
 * credentials, and a submit_sm is a POST /send of the credential's account (the same service, so the same number,
 * sender, opt-out, credit, daily cap and quiet-hours rules, and its answer only after the commit).
 */
export function createSmppGateway(deps: SmppGatewayDeps): EsmeGateway & { forget(): void } {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const actors = new Map<string, { actor: Actor | null; until: number }>();
  const forget = () => actors.clear();
  if (deps.listen) deps.listen(AUTH_CHANGED_CHANNEL, forget).catch(() => {});

  async function actorOf(credential: BoundCredential): Promise<Actor | null> {
    const at = Date.now();
    const hit = actors.get(credential.id);
    if (hit && hit.until > at) return hit.actor;
    const found = await findCredentialById(db, credential.id);
    actors.set(credential.id, { actor: found?.actor ?? null, until: at + ACTOR_TTL_MS });
    return found?.actor ?? null;
  }

  async function refuse(attempt: BindAttempt, refusal: 'unknown_system_id' | 'wrong_password' | 'address_not_allowed', credential?: CredentialForBind): Promise<BindAnswer> {
    if (credential) {
      await record(db, {
        accountId: credential.accountId, actor: auditActorOf(credential, attempt.address), action: 'smpp.bind',
        target: { type: 'smpp_credential', id: credential.id }, outcome: 'refused', reason: refusal, after: { mode: attempt.mode },
      });
    }
    const throttled = await deps.addressThrottle.failed(attempt.address);
    return { ok: false, refusal: throttled ? 'throttled' : refusal };
  }

  return {
    forget,

    queue: {
      claim: (credentialId, token, limit) => claimDeliveries(db, credentialId, token, limit, deps.queueHours),
      done: (ids, token) => deleteDeliveries(db, ids, token),
      release: (ids, token) => releaseDeliveries(db, ids, token),
    },

    async bind(attempt) {
      const credential = await findCredentialBySystemId(db, attempt.systemId);
      if (!credential) return refuse(attempt, 'unknown_system_id');
      if (!passwordMatches(credential.systemId, attempt.password, credential.passwordHash)) return refuse(attempt, 'wrong_password', credential);
      if (!addressAllowed(credential.allowedIps, attempt.address)) return refuse(attempt, 'address_not_allowed', credential);
      await db.transaction(async (tx) => {
        await touchCredential(tx, credential.id);
        await record(tx, {
          accountId: credential.accountId, actor: auditActorOf(credential, attempt.address), action: 'smpp.bind',
          target: { type: 'smpp_credential', id: credential.id }, after: { mode: attempt.mode },
        });
      });
      return {
        ok: true,
        credential: { id: credential.id, accountId: credential.accountId, systemId: credential.systemId, maxBinds: credential.maxBinds, tps: credential.tps },
      };
    },

    async submit(credential: BoundCredential, submission: Submission): Promise<SubmitAnswer> {
      // A revoked credential's binds are closed as the revocation is heard; this catches a submit already on its way.
      const actor = await actorOf(credential);
      if (!actor) return { ok: false, code: 'forbidden', message: 'The credential is revoked or its account closed' };
      const sendAt = submission.sendAt && submission.sendAt.getTime() > now().getTime() ? submission.sendAt.toISOString() : undefined;
      try {
        // A receipt asked for, a part's concatenation fields and a validity period are written in the send's own
        // transaction.
        const { validUntil } = submission;
        const result = await deps.messages.send(actor, {
          to: submission.to, message: submission.text,
          ...(submission.from !== null ? { sender: submission.from } : {}),
          ...(sendAt ? { send_at: sendAt } : {}),
        }, submission.receipt || submission.part || validUntil ? async (tx, sent) => {
          if (submission.part) await insertPart(tx, sent.message_id, submission.part);
          if (validUntil) await insertValidity(tx, sent.message_id, validUntil);
          if (submission.receipt) {
            await insertSubmit(tx, {
              messageId: sent.message_id, credentialId: credential.id, accountId: credential.accountId,
              source: submission.source, destination: submission.destination,
            });
          }
        } : undefined, { ...(submission.part ? { customerPart: true } : {}), ...(validUntil ? { customerValidity: true } : {}) });
        return { ok: true, messageId: result.message_id };
      } catch (err) {
        if (err instanceof AppError) return { ok: false, code: err.code, message: err.message };
        throw err;
      }
    },
  };
}
