import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { requireWithin } from '../../platform/permissions.ts';
import { record } from '../../platform/audit/record.ts';
import { parseCidr } from './credential-secret.ts';
import { credentialExists, insertCredential, listCredentials, revokeCredential, type CredentialRow } from './smpp-credentials.repo.ts';
import type { CreateSmppCredential } from './smpp-credentials.schemas.ts';
import { liveBinds } from './smpp-limits.repo.ts';
import { queuedDeliveries } from './smpp-queue.repo.ts';

const view = (row: CredentialRow) => ({
  id: row.id, name: row.name, system_id: row.system_id, allowed_ips: row.allowed_ips, max_binds: row.max_binds, tps: row.tps,
  created_at: new Date(row.created_at).toISOString(),
});

/** CIDR blocks as the credential keeps them (trimmed); 400 naming the first that is not an address or a block. */
function allowedBlocks(given: string[] | undefined): string[] {
  const blocks = (given ?? []).map((b) => b.trim());
  blocks.forEach((block, i) => {
    if (!parseCidr(block)) {
      throw new AppError('validation_failed', `allowed_ips[${i}] is not an IP address or CIDR block`, {
        details: [{ field: `allowed_ips[${i}]`, message: 'an IPv4 or IPv6 address, optionally with /prefix' }],
      });
    }
  });
  return blocks;
}

// The account's SMPP credentials. A credential sends with the account's `send` permission, so only a caller that
// holds `send` may issue one; revocation closes its binds on every instance at once (the server listens).
export function createSmppCredentialService(deps: { db: Db }) {
  const { db } = deps;

  async function list(actor: Actor) {
    const found = await listCredentials(db, actor.accountId);
    return {
      credentials: found.map((row) => ({
        ...view(row), revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
        last_bound_at: row.last_bound_at ? new Date(row.last_bound_at).toISOString() : null,
      })),
    };
  }

  async function create(actor: Actor, input: CreateSmppCredential) {
    requireWithin(actor, ['send'], 'issue an SMPP credential, which sends messages');
    const allowedIps = allowedBlocks(input.allowed_ips);
    return db.transaction(async (tx) => {
      const row = await insertCredential(tx, actor.accountId, {
        name: input.name.trim() || 'SMPP', allowedIps, maxBinds: input.max_binds ?? 2, tps: input.tps ?? 10, createdByUser: actor.userId,
      });
      await record(tx, {
        accountId: actor.accountId, actor, action: 'smpp_credential.created', target: { type: 'smpp_credential', id: row.id },
        after: { name: row.name, system_id: row.system_id, allowed_ips: row.allowed_ips, max_binds: row.max_binds, tps: row.tps },
      });
      return { ...view(row), password: row.password };
    });
  }

  /** Revoking an already revoked credential answers ok again; another account's id is 404. */
  async function revoke(actor: Actor, id: string) {
    if (!(await credentialExists(db, actor.accountId, id))) throw notFound('SMPP credential');
    await db.transaction(async (tx) => {
      if (await revokeCredential(tx, actor.accountId, id)) {
        await record(tx, {
          accountId: actor.accountId, actor, action: 'smpp_credential.revoked', target: { type: 'smpp_credential', id },
          before: { revoked: false }, after: { revoked: true },
        });
      }
    });
    return { ok: true };
  }

  /** The operator's view: live binds on every instance (of one account, if given) and the deliveries waiting. */
  async function operatorBinds(accountId?: string) {
    const [binds, queued] = await Promise.all([liveBinds(db, accountId), queuedDeliveries(db)]);
    return {
      binds: binds.map((b) => ({ ...b, bound_at: new Date(b.bound_at).toISOString(), seen_at: new Date(b.seen_at).toISOString() })),
      queued: accountId ? queued.filter((q) => q.account_id === accountId) : queued,
    };
  }

  return { list, create, revoke, operatorBinds };
}

export type SmppCredentialService = ReturnType<typeof createSmppCredentialService>;
