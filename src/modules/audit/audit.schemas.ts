import { Type, type Static } from '@fastify/type-provider-typebox';
import { Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Fields = Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'Changed fields; secrets appear as "[redacted]"' }));

export const AuditEntry = Type.Object({
  id: Uuid,
  created_at: Timestamp,
  account_id: Nullable(Uuid),
  actor: Type.Object({
    type: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('operator'), Type.Literal('system'), Type.Literal('anonymous')], {
      description: 'user (signed in), key (an API key), operator, system (a background job) or anonymous (a failed sign-in)',
    }),
    id: Nullable(Type.String({ description: 'The user\'s or key\'s id' })),
    label: Nullable(Type.String({ description: 'The user\'s email, the key\'s prefix, "operator", or the job\'s name' })),
  }),
  source_address: Nullable(Type.String({ description: 'The request\'s address; null for background work' })),
  action: Type.String({ description: 'A dotted name: key.created, webhook.secret_rotated, team.member_removed, access.refused…' }),
  target: Nullable(Type.Object({ type: Type.String(), id: Nullable(Type.String()) })),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('refused')]),
  reason: Nullable(Type.String({ description: 'For a refusal: the error code it was answered with' })),
  before: Fields,
  after: Fields,
});

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry),
  next_cursor: Nullable(Type.String({ description: 'The next page\'s cursor; null on the last page' })),
});

const filters = {
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'A user or key id, an email, or a key prefix' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An action (key.created) or its first part (key)' })),
  target: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A target\'s id, or a target type (api_key)' })),
  outcome: Type.Optional(Type.Union([Type.Literal('ok'), Type.Literal('refused')])),
  from: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Entries at or after this time (ISO 8601)' })),
  to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Entries before this time (ISO 8601)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Page size, 50 by default' })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
};

export const AuditQuery = Type.Object({
  ...filters,
  account_id: Type.Optional(Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'A sub-account this account manages; its own by default' })),
});

export const AdminAuditQuery = Type.Object({
  ...filters,
  account_id: Type.Optional(Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'One account\'s entries; every account\'s and the operator-wide ones by default' })),
});

export type AuditQueryInput = Static<typeof AuditQuery>;
