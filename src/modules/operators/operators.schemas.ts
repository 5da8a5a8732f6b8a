import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';

export const OperatorCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Who this operator is, as the audit log names them (unique among live operators, in any case)' }),
});
export type OperatorCreateInput = Static<typeof OperatorCreate>;

const SetupUrl = Type.String({
  description: 'Opens the console page where the operator chooses a password and enrols an authenticator app (valid 7 days, once); the console opens only after both',
});

export const Operator = Type.Object({
  id: described(Uuid, 'The operator\'s id'),
  name: Type.String({ description: 'Their name, as the audit log records their actions' }),
  token_prefix: Type.String({ description: 'The first characters of their token, to tell tokens apart' }),
  created_at: described(Timestamp, 'When they were added'),
  created_by: Type.String({ description: 'Who added them: an operator\'s name, or `operator` for the bootstrap token' }),
  revoked_at: nullable(Timestamp, 'When they were removed (their token stopped working); null while live'),
}, { description: 'A named operator' });

export const OperatorCreated = Type.Object({
  ...Operator.properties,
  token: Type.String({ description: 'Their operator token (tso_…), shown this once: only its hash is kept' }),
  setup_url: SetupUrl,
}, { description: 'The new operator, their token and their console setup link' });

export const SetupLink = Type.Object({ setup_url: SetupUrl }, { description: 'The new setup link' });

export const SETUP_URL_EXAMPLE = 'https://sms.example.com/app/operator/setup#Qm9vdHN0cmFwU2V0dXBUb2tlbkV4YW1wbGU';

export const OperatorList = Type.Object({
  operators: Type.Array(Operator, { description: 'Oldest first' }),
  total: Type.Integer({ description: 'How many are listed' }),
}, { description: 'The named operators' });

export const OperatorListQuery = Type.Object({
  include_revoked: Type.Optional(Type.Boolean({ description: 'Removed operators too (default false)' })),
});

export const OPERATOR_EXAMPLE = {
  id: EX.account, name: 'Priya Raman', token_prefix: 'tso_q3Zr8LkW', created_at: EX.created, created_by: 'operator', revoked_at: null,
};
