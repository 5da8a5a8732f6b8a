import type { Actor } from '../../platform/actor.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { canonicalTimeZone, quietHoursProblem, readSettings, toSettingsView, type SettingsView } from './account-settings.ts';
import { mergeAccountSettings } from './settings.repo.ts';
import type { SettingsUpdate } from './settings.schemas.ts';
import { record } from '../../platform/audit/record.ts';
import { changedFields } from '../../platform/audit/redact.ts';

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', `${field}: ${message}`, { details: [{ field, message }] });

/**
 * The stored form of a settings change, checked: 400 validation_failed for a zone the runtime does not know or a
 * window that opens and closes at the same minute. Fields left out are not in the result (they keep their value).
 */
export function settingsChanges(input: SettingsUpdate): Partial<SettingsView> {
  const changes: Partial<SettingsView> = {};
  if (input.quiet_hours !== undefined) {
    const problem = input.quiet_hours && quietHoursProblem(input.quiet_hours);
    if (problem) throw invalid('quiet_hours', problem);
    changes.quiet_hours = input.quiet_hours && { start: input.quiet_hours.start, end: input.quiet_hours.end };
  }
  if (input.time_zone !== undefined) {
    const zone = canonicalTimeZone(input.time_zone);
    if (zone === null) throw invalid('time_zone', `"${input.time_zone}" is not an IANA time zone name (such as Australia/Sydney)`);
    changes.time_zone = zone;
  }
  if (input.link_tracking !== undefined) changes.link_tracking = input.link_tracking;
  if (input.country !== undefined) changes.country = input.country;
  if (input.low_balance_threshold !== undefined) changes.low_balance_threshold = input.low_balance_threshold;
  return changes;
}

/** Writes a checked change to an account's settings (any account the caller has been allowed to change). */
export async function applySettings(db: Executor, accountId: string, changes: Partial<SettingsView>): Promise<SettingsView> {
  const stored = await mergeAccountSettings(db, accountId, changes);
  if (stored === null) throw notFound('Account');
  return toSettingsView(readSettings(stored));
}

/**
 * GET and PUT /settings: the caller's own account.
 */
export function createSettingsService(deps: { db: Db }) {
  // Read with the key or session on this very request: no query.
  const get = (actor: Actor) => ({ settings: toSettingsView(actor.account.settings) });

  async function update(actor: Actor, input: SettingsUpdate) {
    const changes = settingsChanges(input);
    const before = toSettingsView(actor.account.settings);
    if (Object.keys(changes).length === 0) return { ok: true as const, settings: before };
    const settings = await deps.db.transaction(async (tx) => {
      const after = await applySettings(tx, actor.accountId, changes);
      // Before: as read with the caller's key or session at the start of the request.
      await record(tx, { accountId: actor.accountId, actor, action: 'settings.updated', target: { type: 'account', id: actor.accountId }, ...changedFields(before, after) });
      return after;
    });
    return { ok: true as const, settings };
  }

  const twoFactorPolicy = (actor: Actor) => ({ required: actor.account.settings.twoFactorRequired });

  /**
   * The owner requires (or stops requiring) a second factor of every dashboard user (decision 0082). The owner must
   * have one first, so requiring it never shuts them out of the setting itself.
   */
  async function requireTwoFactor(actor: Actor, required: boolean) {
    const before = actor.account.settings.twoFactorRequired;
    // Read with the session on this very request, as the two-factor gate in platform/http/auth.ts reads it.
    if (required && !actor.user?.twoFactor) {
      throw new AppError('conflict', 'Turn on your own two-factor authentication first (on the Security page), then require it of the team');
    }
    if (required === before) return { required };
    await deps.db.transaction(async (tx) => {
      if (await mergeAccountSettings(tx, actor.accountId, { two_factor_required: required }) === null) throw notFound('Account');
      await record(tx, {
        accountId: actor.accountId, actor, action: 'settings.two_factor_required', target: { type: 'account', id: actor.accountId },
        before: { two_factor_required: before }, after: { two_factor_required: required },
      });
    });
    return { required };
  }

  return { get, update, twoFactorPolicy, requireTwoFactor };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
