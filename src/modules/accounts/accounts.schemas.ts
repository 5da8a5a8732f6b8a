import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import type { RouteContract } from '../../platform/http/route-registry.ts';
import { described, NonBlankName, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { Country, LowBalanceThreshold, QuietHoursSchema, settingsFields } from '../settings/settings.schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 320, description: 'The sub-account\'s contact email, unique within the group; required when it manages itself' });
const Abn = Type.String({ minLength: 11, maxLength: 14, description: 'Australian Business Number: 11 digits, spaces ignored. Default: the parent\'s. One set here is not verified, so it unlocks no Sender ID (only the operator\'s does)' });
const DailyLimit = Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Most messages the sub-account may send per day (Australia/Sydney); null for no cap' });
const BusinessName = described(NonBlankName, 'The business\'s name, 1 to 200 characters');

const SubAccountId = described(Uuid, 'The sub-account\'s id: a direct, open sub-account of the caller (anything else answers 404)');
const ManagedByParent = Type.Boolean({ description: 'The parent may change the sub-account (settings, keys, team, credit recall); false hands it to its own owner, and email is then required. Default true' });
const TeamAccess = Type.Boolean({ description: 'The parent\'s team members may sign in to the sub-account\'s dashboard. Default false' });
const OptoutExempt = Type.Boolean({ description: 'Sends skip the opt-out list check (for strictly transactional senders, on the parent\'s responsibility). Default false' });
const InheritSenders = Type.Boolean({ description: 'The sub-account may also send from the parent\'s registered Sender IDs and dedicated numbers. Default false; only the parent sets it' });

export const AccountIdParams = Type.Object({ id: SubAccountId });
export const KeyParams = Type.Object({ id: SubAccountId, keyId: described(Uuid, 'The key\'s id, as GET /account/{id}/keys lists it') });

export const CreateSubAccount = Type.Object({
  business_name: BusinessName,
  email: Type.Optional(nullable(Email)),
  abn: Type.Optional(Abn),
  daily_limit: Type.Optional(nullable(DailyLimit)),
  managed_by_parent: Type.Optional(ManagedByParent),
  team_access_from_parent: Type.Optional(TeamAccess),
  optout_exempt: Type.Optional(OptoutExempt),
  inherit_parent_senders: Type.Optional(InheritSenders),
  seed_credits: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Credits moved from the parent\'s balance to the new sub-account (default 0); 402 if the parent has fewer' })),
  country: Type.Optional(Type.Union(Country.anyOf, { description: 'The country the sub-account\'s local numbers are read in (default: the parent\'s)' })),
}, { description: 'The new sub-account\'s settings' });
export type CreateSubAccountInput = Static<typeof CreateSubAccount>;

export const PatchSubAccount = Type.Object({
  business_name: Type.Optional(BusinessName),
  email: Type.Optional(nullable(Email)),
  abn: Type.Optional(nullable(Abn, 'Australian Business Number (11 digits, spaces ignored), or null to clear it. Not verified: it unlocks no Sender ID')),
  daily_limit: Type.Optional(nullable(DailyLimit)),
  managed_by_parent: Type.Optional(ManagedByParent),
  team_access_from_parent: Type.Optional(TeamAccess),
  optout_exempt: Type.Optional(OptoutExempt),
  inherit_parent_senders: Type.Optional(InheritSenders),
  // The sub-account's sending settings, as PUT /settings changes them on the caller's own account.
  ...settingsFields,
}, { description: 'The fields to change; the ones left out keep their value' });

const AccountStatus = Type.String({ description: 'active, suspended (by the operator: it may read but not send or change anything) or closed' });
export const AccountListItem = Type.Object({
  id: described(Uuid, 'The account\'s id'), business_name: Type.String({ description: 'The business\'s name' }),
  parent_account_id: Type.Union([Uuid, Type.Null()], { description: 'null on the calling account itself (listed first)' }),
  created_at: described(Timestamp, 'When the account was created'),
  account_status: AccountStatus, credits: Type.Integer({ description: 'Its credit balance' }),
});
export const AccountList = Type.Object({
  accounts: Type.Array(AccountListItem, { description: 'The calling account first, then its open sub-accounts' }),
}, { description: 'The caller and its sub-accounts' });

export const AccountDetail = Type.Object({
  id: described(Uuid, 'The account\'s id'),
  business_name: Type.String({ description: 'The business\'s name' }),
  credits: Type.Integer({ description: 'Its credit balance (one credit per message part)' }),
  account_status: AccountStatus,
  daily_send_limit: nullable(Type.Integer(), 'Most messages it may send per day (Australia/Sydney); null for no cap'),
  managed_by_parent: Type.Boolean({ description: 'The parent may change it (settings, keys, team, credit recall)' }),
  team_access_from_parent: Type.Boolean({ description: 'The parent\'s team may sign in to its dashboard' }),
  user_count: Type.Integer({ description: 'Dashboard users on the account' }),
  number_count: Type.Integer({ description: 'Dedicated numbers it holds' }),
  email: nullable(Type.String(), 'Its contact email, or null'),
  parent_account_id: nullable(Uuid, 'Its parent\'s id; null for a top-level account'),
  created_at: described(Timestamp, 'When the account was created'),
  hierarchy_enabled: Type.Boolean({ description: 'It may have sub-accounts of its own (set by the operator)' }),
  optout_exempt: Type.Boolean({ description: 'Its sends skip the opt-out list check' }),
  inherit_parent_senders: Type.Boolean({ description: 'It may send from the parent\'s Sender IDs and dedicated numbers' }),
  abn: nullable(Type.String(), 'Its Australian Business Number (11 digits), or null'),
  sending_number: nullable(Type.String(), 'the default sender: the first dedicated number, or null (the shared number is used)'),
  default_sender_id_value: nullable(Type.String(), 'the first Sender ID registered to the account\'s ABN, or null'),
  quiet_hours: nullable(QuietHoursSchema, 'Its quiet hours, or null when off'),
  time_zone: Type.String({ description: 'IANA zone of the account\'s Australian recipients' }),
  link_tracking: Type.Boolean({ description: 'Sends shorten and count links unless they say otherwise' }),
  country: Country,
  low_balance_threshold: nullable(LowBalanceThreshold, 'The balance below which a debit emails its owner, or null when off'),
}, { description: 'An account, as its parent sees it' });
export const ACCOUNT_EXAMPLE = {
  id: EX.subAccount, business_name: 'Harbour Dental Manly', credits: 1000, account_status: 'active', daily_send_limit: 2000,
  managed_by_parent: true, team_access_from_parent: false, user_count: 1, number_count: 1, email: 'manly@harbourdental.example',
  parent_account_id: EX.account, created_at: EX.created, hierarchy_enabled: false, optout_exempt: false, inherit_parent_senders: false,
  abn: '51824753556', sending_number: '+61480000123', default_sender_id_value: 'HarbourDnt', quiet_hours: { start: '21:00', end: '08:00' },
  time_zone: 'Australia/Sydney', link_tracking: false, country: 'AU', low_balance_threshold: null,
};
export const SubAccountCreated = Type.Object({
  account_id: described(Uuid, 'The new sub-account\'s id'),
  id: described(Uuid, 'The same id (both names are in use by client libraries)'),
  email: Type.Union([Type.String(), Type.Null()], { description: 'Its contact email, or null' }),
  account: described(AccountDetail, 'The new sub-account, as GET /account/{id} answers it'),
}, { description: 'The sub-account is created' });
export const AccountResponse = Type.Object({ account: AccountDetail }, { description: 'The sub-account' });
export const PatchResult = Type.Object({ ok: Type.Boolean({ description: 'true: the change is committed' }), account: AccountDetail }, { description: 'The sub-account after the change' });
export const CloseResult = Type.Object({
  ok: Type.Boolean({ description: 'true: the sub-account is closed' }),
  credits_returned: Type.Integer({ description: 'Its balance, moved back to the parent' }),
  scheduled_for_deletion: Type.Boolean({ description: 'always false: Tasman closes the sub-account at once' }),
}, { description: 'The sub-account is closed' });

export const Balance = Type.Object({ credits: Type.Integer({ description: 'The credit balance: one credit per message part' }) }, { description: 'The balance' });
export const TransferRequest = Type.Object({
  amount: Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Credits to move, 1 to 100,000,000; the giving side must hold them (else 402)' }),
});
export const TransferResult = Type.Object({
  ok: Type.Boolean({ description: 'true: the credits moved' }),
  direction: Type.Union([Type.Literal('allocate'), Type.Literal('recall')], { description: 'allocate: parent to sub-account; recall: back' }),
  amount: Type.Integer({ description: 'Credits moved' }),
  credits: Type.Integer({ description: 'the sub-account\'s balance after the move' }),
  parent_credits: Type.Integer({ description: 'the parent\'s balance after the move' }),
}, { description: 'The credits moved' });

/**
 * The contract of a route on one sub-account (`/account/:id…`, in whichever module): refused 403 when the caller
 * lacks the hierarchy flag and 404 for anything but its own open sub-account (loadManagedAccount, access.ts).
 * The hierarchy matrix (test/api/hierarchy-matrix.test.ts) runs on every such route the registry records.
 */
export const subAccountContract = (contract: RouteContract = {}): RouteContract => ({
  ...contract, errors: ['hierarchy_not_enabled', 'not_found', ...(contract.errors ?? [])],
});

/** A change to one sub-account: also refused 403 when the sub-account manages itself (loadManagedAccount's write). */
export const subAccountWriteContract = (contract: RouteContract = {}): RouteContract => subAccountContract({
  ...contract, errors: ['not_managed_by_parent', ...(contract.errors ?? [])],
});
