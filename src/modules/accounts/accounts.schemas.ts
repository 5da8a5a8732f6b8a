import { Type } from '@fastify/type-provider-typebox';
import type { RouteContract } from '../../platform/http/route-registry.ts';
import { NonBlankName, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { QuietHoursSchema, settingsFields } from '../settings/settings.schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Email = Type.String({ format: 'email', maxLength: 320 });
const Abn = Type.String({ minLength: 11, maxLength: 14, description: '11 digits; spaces ignored' });
const DailyLimit = Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'messages per day (Australia/Sydney); null for no cap' });
const BusinessName = NonBlankName;

export const AccountIdParams = Type.Object({ id: Uuid });
export const KeyParams = Type.Object({ id: Uuid, keyId: Uuid });

export const CreateSubAccount = Type.Object({
  business_name: BusinessName,
  email: Type.Optional(Nullable(Email)),
  abn: Type.Optional(Abn),
  daily_limit: Type.Optional(Nullable(DailyLimit)),
  managed_by_parent: Type.Optional(Type.Boolean({ description: 'default true; when false, email is required' })),
  team_access_from_parent: Type.Optional(Type.Boolean()),
  optout_exempt: Type.Optional(Type.Boolean()),
  inherit_parent_senders: Type.Optional(Type.Boolean()),
  seed_credits: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'moved from the parent\'s balance' })),
});
export const SubAccountCreated = Type.Object({ account_id: Uuid, id: Uuid, email: Nullable(Type.String()) });

export const PatchSubAccount = Type.Object({
  business_name: Type.Optional(BusinessName),
  email: Type.Optional(Nullable(Email)),
  abn: Type.Optional(Nullable(Abn)),
  daily_limit: Type.Optional(Nullable(DailyLimit)),
  managed_by_parent: Type.Optional(Type.Boolean()),
  team_access_from_parent: Type.Optional(Type.Boolean()),
  optout_exempt: Type.Optional(Type.Boolean()),
  inherit_parent_senders: Type.Optional(Type.Boolean()),
  // The sub-account's sending settings, as PUT /settings changes them on the caller's own account.
  ...settingsFields,
});

export const AccountListItem = Type.Object({
  id: Uuid, business_name: Type.String(),
  parent_account_id: Type.Union([Uuid, Type.Null()], { description: 'null on the calling account itself (listed first)' }),
  created_at: Timestamp,
  account_status: Type.String(), credits: Type.Integer(),
});
export const AccountList = Type.Object({ accounts: Type.Array(AccountListItem) });

export const AccountDetail = Type.Object({
  id: Uuid,
  business_name: Type.String(),
  credits: Type.Integer(),
  account_status: Type.String(),
  daily_send_limit: Nullable(Type.Integer()),
  managed_by_parent: Type.Boolean(),
  team_access_from_parent: Type.Boolean(),
  user_count: Type.Integer(),
  number_count: Type.Integer(),
  email: Nullable(Type.String()),
  parent_account_id: Nullable(Uuid),
  created_at: Timestamp,
  hierarchy_enabled: Type.Boolean(),
  optout_exempt: Type.Boolean(),
  inherit_parent_senders: Type.Boolean(),
  abn: Nullable(Type.String()),
  sending_number: Nullable(Type.String({ description: 'the default sender: the first dedicated number, or null (the shared number is used)' })),
  default_sender_id_value: Nullable(Type.String({ description: 'the first Sender ID registered to the account\'s ABN, or null' })),
  quiet_hours: Nullable(QuietHoursSchema),
  time_zone: Type.String({ description: 'IANA zone of the account\'s Australian recipients' }),
  link_tracking: Type.Boolean(),
});
export const AccountResponse = Type.Object({ account: AccountDetail });
export const PatchResult = Type.Object({ ok: Type.Boolean(), account: AccountDetail });
export const CloseResult = Type.Object({
  ok: Type.Boolean(), credits_returned: Type.Integer(),
  scheduled_for_deletion: Type.Boolean({ description: 'always false: Tasman closes the sub-account at once' }),
});

export const Balance = Type.Object({ credits: Type.Integer() });
export const TransferRequest = Type.Object({ amount: Type.Integer({ minimum: 1, maximum: 100_000_000 }) });
export const TransferResult = Type.Object({
  ok: Type.Boolean(),
  direction: Type.Union([Type.Literal('allocate'), Type.Literal('recall')]),
  amount: Type.Integer(),
  credits: Type.Integer({ description: 'the sub-account\'s balance after the move' }),
  parent_credits: Type.Integer({ description: 'the parent\'s balance after the move' }),
});

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
