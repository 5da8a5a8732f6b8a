import { Type } from '@fastify/type-provider-typebox';
import { Uuid } from '../../platform/http/schemas.ts';

export const Login = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1000 }),
});
export const OperatorLogin = Type.Object({ token: Type.String({ minLength: 1, maxLength: 500 }) });
export const InviteToken = Type.Object({ token: Type.String({ minLength: 20, maxLength: 200 }) });
export const InviteAccept = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 1000 }),
});
export const InviteInfo = Type.Object({ email: Type.String(), business_name: Type.String() });

export const SessionInfo = Type.Object({
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token on every write made with the session cookie' }),
  user: Type.Object({
    id: Uuid, email: Type.String(), name: Type.Union([Type.String(), Type.Null()]), can_send: Type.Boolean(), can_billing: Type.Boolean(),
  }),
  account: Type.Object({
    id: Uuid, business_name: Type.String(), parent_account_id: Type.Union([Uuid, Type.Null()]),
    hierarchy_enabled: Type.Boolean(), account_status: Type.String(),
  }),
});
export const OperatorSessionInfo = Type.Object({ csrf_token: Type.String() });
