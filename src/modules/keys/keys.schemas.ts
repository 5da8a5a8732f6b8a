import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { described, nullable, ScopeName, Timestamp, Uuid } from '../../platform/http/schemas.ts';

import { EX } from '../../platform/http/examples.ts';

const ScopeList = Type.Array(ScopeName, {
  description: 'read: see; send: spend credits on messages; billing: move credits and numbers; manage: change the account',
});
export const KeyScopes = Type.Array(ScopeName, {
  minItems: 1, maxItems: 4, uniqueItems: true,
  description: 'What the key may do: read, send, billing, manage (default all four); at most the caller\'s own permissions',
});

// API keys, as the account's own key routes and a parent's sub-account key routes show them.
const KeyId = described(Uuid, 'The key\'s id (not the key: it cannot authenticate)');
const KeyName = Type.String({ description: 'Its label, for people' });
const Prefix = Type.String({ description: 'The key\'s first characters (tsm_…), to recognise it without the secret' });
export const KeyList = Type.Object({
  keys: Type.Array(Type.Object({
    id: KeyId, name: KeyName, prefix: Prefix, scopes: ScopeList,
    revoked_at: nullable(Timestamp, 'When it was revoked; null while it works'),
    created_at: described(Timestamp, 'When it was issued'),
    last_used_at: nullable(Timestamp, 'When it last authenticated a request (to within a minute); null if never'),
    created_by_user: Type.Optional(nullable(Uuid, 'The team member the key belongs to (it holds at most their permissions); null for none')),
  }), { description: 'Every key of the account, revoked ones included, newest first' }),
}, { description: 'The account\'s API keys' });
export const CreateKey = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100, description: 'A label for people, up to 100 characters (default: API key)' })),
  scopes: Type.Optional(KeyScopes),
}, { description: 'The new key\'s label and scopes; both optional (an empty body is fine)' });
export type KeyInput = Static<typeof CreateKey>;
export const KeyCreated = Type.Object({
  id: KeyId, key: Type.String({ description: 'the full key: shown only in this response' }), prefix: Prefix,
  name: KeyName, scopes: ScopeList, created_at: described(Timestamp, 'When it was issued'),
}, { description: 'The new key, in full this once' });

export const KEY_EXAMPLE = { id: EX.key, name: 'ci', prefix: 'tsm_7Hq2xK9p', scopes: ['read', 'send'], created_at: EX.created };
export const KEY_LIST_EXAMPLE = { keys: [{ ...KEY_EXAMPLE, revoked_at: null, last_used_at: EX.sent }] };
export const KEY_CREATED_EXAMPLE = { ...KEY_EXAMPLE, key: 'tsm_7Hq2xK9pL4mN8vB3cR6tY1wZ5aD0fG2j' };
