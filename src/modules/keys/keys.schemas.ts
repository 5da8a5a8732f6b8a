import { Type } from '@fastify/type-provider-typebox';
import { Timestamp, Uuid } from '../../platform/http/schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const ScopeName = Type.Union([Type.Literal('read'), Type.Literal('send'), Type.Literal('manage')]);
const ScopeList = Type.Array(ScopeName, { description: 'read: see; send: spend credits on messages; manage: change the account' });
export const KeyScopes = Type.Array(ScopeName, {
  minItems: 1, maxItems: 3, uniqueItems: true,
  description: 'What the key may do: read, send, manage (default all three); at most the calling key\'s own',
});

// API keys, as the account's own key routes and a parent's sub-account key routes show them.
export const KeyList = Type.Object({
  keys: Type.Array(Type.Object({
    id: Uuid, name: Type.String(), prefix: Type.String(), scopes: ScopeList, revoked_at: Nullable(Timestamp),
    created_at: Timestamp, last_used_at: Nullable(Timestamp),
  })),
});
export const CreateKey = Type.Object({ name: Type.Optional(Type.String({ maxLength: 100 })), scopes: Type.Optional(KeyScopes) });
export const KeyCreated = Type.Object({
  id: Uuid, key: Type.String({ description: 'the full key: shown only in this response' }), prefix: Type.String(),
  name: Type.String(), scopes: ScopeList, created_at: Timestamp,
});
