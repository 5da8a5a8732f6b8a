import type { Db, Executor } from '../../platform/db/client.ts';
import { insertUser } from '../users/users.service.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { findAccount, insertAccount, updateAccount } from '../accounts/accounts.service.ts';
import { balanceOf, changeCredits } from '../credits/credits.service.ts';
import { insufficientCredits } from '../credits/insufficient-credits.ts';
import { insertKey, keyExists, revokeKey } from '../keys/keys.service.ts';
import { invalidNumberMessage, normalisePhone, type PhoneCountry } from '../../common/phone.ts';
import { readSettings } from '../settings/account-settings.ts';
import { applySettings } from '../settings/settings.service.ts';
import { normaliseAbn } from '../../common/abn.ts';
import { normaliseScopes, type Scope } from '../keys/scopes.ts';
import { toKeyCreated } from '../keys/key-view.ts';
import { parseSenderId } from '../senders/sender.ts';
import { insertSenderId } from '../senders/senders.service.ts';
import { createAdminLists } from './admin-lists.service.ts';
import type { CreateAccountInput } from './admin.schemas.ts';
import { activeKeyCount, insertNumber, searchAccounts } from './admin.repo.ts';
import { record } from '../../platform/audit/record.ts';
import { changedFields } from '../../platform/audit/redact.ts';
import type { AuditActor } from '../../platform/audit/entry.ts';

/** The credits every new account receives (interface document, Limits). */
export const NEW_ACCOUNT_CREDITS = 5;

// The operator's powers: only reachable with TASMAN_ADMIN_TOKEN, so no tenant checks apply here. Each write takes
// the operator as its audit actor (`by`, operatorActor(request.ip)) and records itself in its own transaction.
export function createAdminService(deps: { db: Db; invite: (db: Executor, accountId: string, userId: string) => Promise<string> }) {
  const { db } = deps;

  async function createAccount(by: AuditActor, input: CreateAccountInput) {
    const credits = input.credits ?? NEW_ACCOUNT_CREDITS;
    return db.transaction(async (tx) => {
      const account = await insertAccount(tx, {
        businessName: input.business_name.trim(), email: input.email, abn: input.abn ? normaliseAbn(input.abn) : null,
        abnVerified: Boolean(input.abn),
        hierarchyEnabled: input.hierarchy_enabled ?? false,
      });
      if (credits > 0) await changeCredits(tx, { accountId: account.id, delta: credits, kind: 'grant' });
      if (input.country) await applySettings(tx, account.id, { country: input.country });
      const key = await insertKey(tx, account.id, 'Default');
      // The owner is the account's first user, with every permission; the invite link lets them sign in.
      const owner = await insertUser(tx, account.id, { email: input.email, name: null, role: 'owner', canSend: true, canBilling: true });
      const ownerInviteUrl = await deps.invite(tx, account.id, owner!.id);
      await record(tx, {
        accountId: account.id, actor: by, action: 'account.created', target: { type: 'account', id: account.id },
        after: { business_name: account.businessName, email: input.email, abn: account.abn, hierarchy_enabled: account.hierarchyEnabled, credits, key_id: key.id, owner_id: owner!.id },
      });
      return { account_id: account.id, api_key: key.key, key_id: key.id, credits, owner_invite_url: ownerInviteUrl };
    });
  }

  async function addCredits(by: AuditActor, accountId: string, amount: number) {
    const account = await findAccount(db, accountId);
    if (!account) throw notFound('Account');
    const credits = await db.transaction(async (tx) => {
      const now = await changeCredits(tx, { accountId, delta: amount, kind: 'admin' });
      if (now === null) return null;
      await record(tx, {
        accountId, actor: by, action: 'credits.granted', target: { type: 'account', id: accountId },
        before: { credits: now - amount }, after: { credits: now, amount },
      });
      return now;
    });
    if (credits === null) throw insufficientCredits(-amount, (await balanceOf(db, accountId)) ?? 0);
    return { account_id: accountId, credits };
  }

  async function patchAccount(by: AuditActor, accountId: string, input: { hierarchy_enabled?: boolean; abn?: string | null; account_status?: string; max_numbers?: number | null; country?: PhoneCountry }) {
    const changes: Parameters<typeof updateAccount>[2] = {};
    if (input.hierarchy_enabled !== undefined) changes.hierarchyEnabled = input.hierarchy_enabled;
    if (input.abn !== undefined) {
      changes.abn = input.abn === null ? null : normaliseAbn(input.abn);
      changes.abnVerified = input.abn !== null;
    }
    if (input.account_status !== undefined) changes.accountStatus = input.account_status;
    if (input.max_numbers !== undefined) changes.maxNumbers = input.max_numbers;
    const view = (r: NonNullable<Awaited<ReturnType<typeof findAccount>>>) => ({
      hierarchy_enabled: r.hierarchyEnabled, abn: r.abn, account_status: r.accountStatus, max_numbers: r.maxNumbers, settings: r.settings,
    });
    const row = await db.transaction(async (tx) => {
      const before = await findAccount(tx, accountId);
      if (!before) throw notFound('Account');
      if (input.country) await applySettings(tx, accountId, { country: input.country });
      const after = await updateAccount(tx, accountId, changes);
      if (!after) throw notFound('Account');
      await record(tx, { accountId, actor: by, action: 'account.updated', target: { type: 'account', id: accountId }, ...changedFields(view(before), view(after)) });
      return after;
    });
    return {
      account_id: row.id, business_name: row.businessName, abn: row.abn, account_status: row.accountStatus,
      hierarchy_enabled: row.hierarchyEnabled, credits: row.credits, max_numbers: row.maxNumbers,
      country: readSettings(row.settings).country,
    };
  }

  async function createKey(by: AuditActor, accountId: string, name: string, scopes?: Scope[]) {
    if (!(await findAccount(db, accountId))) throw notFound('Account');
    return db.transaction(async (tx) => {
      const key = await insertKey(tx, accountId, name, normaliseScopes(scopes));
      await record(tx, {
        accountId, actor: by, action: 'key.created', target: { type: 'api_key', id: key.id }, after: { name: key.name, prefix: key.prefix, scopes: key.scopes },
      });
      return toKeyCreated(key);
    });
  }

  async function revoke(by: AuditActor, accountId: string, keyId: string) {
    if (!(await keyExists(db, accountId, keyId))) throw notFound('API key');
    await db.transaction(async (tx) => {
      if (await revokeKey(tx, accountId, keyId)) {
        await record(tx, { accountId, actor: by, action: 'key.revoked', target: { type: 'api_key', id: keyId }, before: { revoked: false }, after: { revoked: true } });
      }
    });
    return { ok: true };
  }

  async function registerSenderId(by: AuditActor, input: { account_id?: string; sender_id: string; abn: string }) {
    const senderId = parseSenderId(input.sender_id);
    if (input.account_id && !(await findAccount(db, input.account_id))) throw notFound('Account');
    const abn = normaliseAbn(input.abn);
    const row = await db.transaction(async (tx) => {
      const made = await insertSenderId(tx, { senderId, abn, accountId: input.account_id ?? null });
      if (made) {
        await record(tx, {
          accountId: made.accountId, actor: by, action: 'sender_id.registered', target: { type: 'sender_id', id: made.id },
          after: { sender_id: made.senderId, abn: made.abn, account_id: made.accountId },
        });
      }
      return made;
    });
    if (!row) throw new AppError('conflict', 'That Sender ID is already registered to that ABN');
    return { id: row.id, sender_id: row.senderId, abn: row.abn, account_id: row.accountId, created_at: row.createdAt.toISOString() };
  }

  async function addNumber(by: AuditActor, input: { number: string; country: 'AU' | 'NZ'; price_monthly?: number; account_id?: string }) {
    const phone = normalisePhone(input.number, input.country);
    if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(input.number, phone.reason));
    if (phone.country !== input.country) throw new AppError('invalid_number', `"${input.number}" is not a ${input.country} mobile number`);
    if (input.account_id && !(await findAccount(db, input.account_id))) throw notFound('Account');
    const row = await db.transaction(async (tx) => {
      const made = await insertNumber(tx, {
        number: phone.e164, country: phone.country, priceMonthly: input.price_monthly ?? 0, accountId: input.account_id ?? null,
      });
      if (made) {
        await record(tx, {
          accountId: made.accountId, actor: by, action: made.accountId ? 'number.assigned' : 'number.added', target: { type: 'number', id: made.number },
          after: { number: made.number, country: made.country, price_monthly: made.priceMonthly, account_id: made.accountId },
        });
      }
      return made;
    });
    if (!row) throw new AppError('conflict', 'That number is already in the pool');
    return {
      id: row.id, number: row.number, country: row.country, price_monthly: row.priceMonthly, account_id: row.accountId,
    };
  }

  async function getAccount(accountId: string) {
    const row = await findAccount(db, accountId);
    if (!row) throw notFound('Account');
    const n = await activeKeyCount(db, accountId);
    return {
      account_id: row.id, business_name: row.businessName, email: row.email, abn: row.abn, account_status: row.accountStatus,
      hierarchy_enabled: row.hierarchyEnabled, credits: row.credits, parent_account_id: row.parentId, active_keys: n,
      created_at: row.createdAt.toISOString(),
    };
  }

  /** The operator console's account list: newest first, optionally matching a name, email or id. */
  async function listAccounts(query: { q?: string; limit: number; offset: number }) {
    const q = query.q?.trim() ?? '';
    const { rows: found, total } = await searchAccounts(db, q, query.limit, query.offset);
    return {
      accounts: found.map((r) => ({
        account_id: r.id, business_name: r.business_name, email: r.email, abn: r.abn, account_status: r.account_status,
        hierarchy_enabled: r.hierarchy_enabled, credits: r.credits, parent_account_id: r.parent_id, created_at: new Date(r.created_at).toISOString(),
      })),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  }

  return { listAccounts, createAccount, addCredits, patchAccount, createKey, revoke, registerSenderId, addNumber, getAccount, ...createAdminLists(db) };
}

export type AdminService = ReturnType<typeof createAdminService>;
