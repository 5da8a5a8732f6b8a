import { createHash, randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { AuditActor } from '../../platform/audit/entry.ts';
import { record } from '../../platform/audit/record.ts';
import { findLiveOperator, insertOperator, listOperators, revokeOperator, type OperatorRow } from './operators.repo.ts';

/** A named operator as the operator API shows it (never the token, which is shown once at creation). */
const view = (row: OperatorRow) => ({
  id: row.id, name: row.name, token_prefix: row.token_prefix, created_at: new Date(row.created_at).toISOString(), created_by: row.created_by,
  revoked_at: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
});

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Named operators: each person who runs Tasman has a token of their own for the operator API and the CLI, so the
 * audit log names them and removing one revokes that person alone. The bootstrap token (TASMAN_ADMIN_TOKEN) keeps
 * working beside them, and is how the first is created.
 */
export function createOperatorService(deps: {
  db: Db;
  /** A new console setup link for the operator (operator-sign-in.service), in the caller's transaction. */
  issueLink: (exec: Executor, operatorId: string) => Promise<string | null>;
}) {
  const { db } = deps;
  return {
    async add(by: AuditActor, input: { name: string }) {
      const token = `tso_${randomBytes(24).toString('base64url')}`;
      return db.transaction(async (tx) => {
        const row = await insertOperator(tx, { name: input.name.trim(), tokenHash: hashToken(token), tokenPrefix: token.slice(0, 12), createdBy: by.label ?? 'operator' });
        if (!row) throw new AppError('conflict', `An operator named "${input.name.trim()}" exists already: remove it first, or choose another name`);
        await record(tx, { accountId: null, actor: by, action: 'operator.created', target: { type: 'operator', id: row.id }, after: { name: row.name } });
        const setupUrl = await deps.issueLink(tx, row.id);
        return { ...view(row), token, setup_url: setupUrl! };
      });
    },

    async list(input: { include_revoked?: boolean }) {
      const operators = (await listOperators(db, input.include_revoked ?? false)).map(view);
      return { operators, total: operators.length };
    },

    async remove(by: AuditActor, id: string) {
      return db.transaction(async (tx) => {
        const row = await revokeOperator(tx, id);
        if (!row) throw notFound('Operator');
        await record(tx, { accountId: null, actor: by, action: 'operator.removed', target: { type: 'operator', id }, before: { name: row.name }, after: null });
        return view(row);
      });
    },

    /** A new console setup link (lost password or device): their password and second factor are cleared, their sessions end. */
    async newSetupLink(by: AuditActor, id: string) {
      return db.transaction(async (tx) => {
        const setupUrl = await deps.issueLink(tx, id);
        if (!setupUrl) throw notFound('Operator');
        await record(tx, { accountId: null, actor: by, action: 'operator.setup_link_issued', target: { type: 'operator', id } });
        return { setup_url: setupUrl };
      });
    },

    /** The live operator holding this token, or null (a revoked or unknown token). */
    authenticate: (token: string) => (token.startsWith('tso_') ? findLiveOperator(db, hashToken(token)) : Promise.resolve(null)),
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
