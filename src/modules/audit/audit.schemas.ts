import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';

const Fields = (when: string) => nullable(Type.Record(Type.String(), Type.Unknown()), `The changed fields ${when}; secrets appear as "[redacted]"; null when none`);

export const AuditEntry = Type.Object({
  id: described(Uuid, 'The entry\'s id'),
  created_at: described(Timestamp, 'When it happened'),
  account_id: nullable(Uuid, 'The account it concerns; null for an operator-wide entry'),
  actor: Type.Object({
    type: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('operator'), Type.Literal('system'), Type.Literal('anonymous')], {
      description: 'user (signed in), key (an API key), operator, system (a background job) or anonymous (a failed sign-in)',
    }),
    id: nullable(Type.String(), 'The user\'s or key\'s id, or null'),
    label: nullable(Type.String(), 'The user\'s email, the key\'s prefix, "operator", or the job\'s name'),
  }, { description: 'Who did it' }),
  source_address: nullable(Type.String(), 'The request\'s address; null for background work'),
  action: Type.String({ description: 'A dotted name: key.created, webhook.secret_rotated, team.member_removed, access.refused…' }),
  target: nullable(Type.Object({
    type: Type.String({ description: 'What kind of thing: api_key, user, webhook, account…' }),
    id: nullable(Type.String(), 'Its id, or null'),
  }), 'What it was done to, or null'),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('refused')], { description: 'ok, or refused (answered with an error)' }),
  reason: nullable(Type.String(), 'For a refusal: the error code it was answered with'),
  before: Fields('before'),
  after: Fields('after'),
}, { description: 'One audited action' });

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry, { description: 'The page, newest first' }),
  next_cursor: nullable(Type.String(), 'The next page\'s cursor; null on the last page'),
}, { description: 'A page of the audit log' });

export const AUDIT_EXAMPLE = {
  entries: [{
    id: EX.delivery, created_at: EX.later, account_id: EX.account,
    actor: { type: 'user', id: EX.user, label: 'reception@harbourdental.example' }, source_address: '203.0.113.24',
    action: 'key.created', target: { type: 'api_key', id: EX.key }, outcome: 'ok', reason: null,
    before: null, after: { name: 'ci', scopes: ['read', 'send'] },
  }],
  next_cursor: null,
};

const filters = {
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'A user or key id, an email, or a key prefix' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An action (key.created) or its first part (key)' })),
  target: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A target\'s id, or a target type (api_key)' })),
  outcome: Type.Optional(Type.Union([Type.Literal('ok'), Type.Literal('refused')], { description: 'Only ok or only refused entries' })),
  from: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Entries at or after this time (ISO 8601)' })),
  to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Entries before this time (ISO 8601)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Page size, 50 by default' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
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
