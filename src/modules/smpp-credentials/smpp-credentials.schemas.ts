import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { described, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { EX } from '../../platform/http/examples.ts';

// SMPP credentials: what a customer's own SMPP client binds to Tasman's SMPP server with (docs/smpp-server.md).
export const SMPP_LIMITS = { maxBinds: 20, tps: 500, allowedIps: 20 } as const;

const CredentialId = described(Uuid, 'The credential\'s id (not its system_id)');
const Name = Type.String({ description: 'Its label, for people' });
const SystemId = Type.String({ description: 'The system_id a bind names: generated, 13 characters' });
const AllowedIps = Type.Array(Type.String({ maxLength: 49 }), {
  maxItems: SMPP_LIMITS.allowedIps,
  description: 'Addresses or CIDR blocks (IPv4 or IPv6) a bind may come from; empty: any address',
});
const MaxBinds = Type.Integer({ minimum: 1, maximum: SMPP_LIMITS.maxBinds, description: `Binds open at once across every instance (1 to ${SMPP_LIMITS.maxBinds})` });
const Tps = Type.Integer({ minimum: 1, maximum: SMPP_LIMITS.tps, description: `submit_sm a second across every bind of the credential (1 to ${SMPP_LIMITS.tps}); beyond it ESME_RTHROTTLED` });

export const CreateSmppCredential = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'A label for people, up to 100 characters' }),
  allowed_ips: Type.Optional(AllowedIps),
  max_binds: Type.Optional({ ...MaxBinds, default: 2 }),
  tps: Type.Optional({ ...Tps, default: 10 }),
}, { description: 'The new credential: a label, and optionally where binds may come from and their limits (default 2 binds, 10 a second)' });
export type CreateSmppCredential = Static<typeof CreateSmppCredential>;

const CredentialFields = {
  id: CredentialId, name: Name, system_id: SystemId, allowed_ips: AllowedIps, max_binds: MaxBinds, tps: Tps,
  created_at: described(Timestamp, 'When it was issued'),
};

export const SmppCredentialCreated = Type.Object({
  ...CredentialFields,
  password: Type.String({ description: 'The bind password (8 characters): shown only in this response' }),
}, { description: 'The new credential, with its password this once' });

export const SmppCredentialList = Type.Object({
  credentials: Type.Array(Type.Object({
    ...CredentialFields,
    revoked_at: nullable(Timestamp, 'When it was revoked; null while it works'),
    last_bound_at: nullable(Timestamp, 'When a bind last authenticated with it; null if never'),
  }), { description: 'Every credential of the account, revoked ones included, newest first' }),
}, { description: 'The account\'s SMPP credentials (never their passwords)' });

const EXAMPLE = {
  id: EX.key, name: 'reseller platform', system_id: 'tsm4k2p9x7q1m', allowed_ips: ['203.0.113.0/24'], max_binds: 2, tps: 10,
  created_at: EX.created,
};
export const SMPP_CREDENTIAL_CREATED_EXAMPLE = { ...EXAMPLE, password: 'pT7q2XkM' };
export const SMPP_CREDENTIAL_LIST_EXAMPLE = { credentials: [{ ...EXAMPLE, revoked_at: null, last_bound_at: EX.sent }] };
