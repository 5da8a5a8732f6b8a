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

// The optional TOTP second factor.
export const SecondFactorRequired = Type.Object({
  second_factor_required: Type.Literal(true),
  challenge: Type.String({ description: 'Send it with the code to POST /session/two-factor' }),
  expires_in: Type.Integer({ description: 'Seconds the challenge waits for the code' }),
});
const Code = Type.String({ minLength: 6, maxLength: 40, description: 'Six digits from the authenticator app, or a recovery code' });
export const SecondFactor = Type.Object({ challenge: Type.String({ minLength: 20, maxLength: 200 }), code: Code });
export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean(),
  pending: Type.Boolean({ description: 'An enrolment waits for its first code' }),
  recovery_codes_left: Type.Integer(),
});
export const TwoFactorEnrolment = Type.Object({
  secret: Type.String({ description: 'Base32, for typing into an authenticator app; shown once' }),
  otpauth_uri: Type.String({ description: 'The same secret as an otpauth:// URI (what a QR code would hold)' }),
});
export const TwoFactorConfirm = Type.Object({ code: Type.String({ minLength: 6, maxLength: 12 }) });
export const TwoFactorEnabled = Type.Object({
  enabled: Type.Literal(true),
  recovery_codes: Type.Array(Type.String(), { description: 'Ten one-time codes for when the device is lost; shown once' }),
});
export const TwoFactorDisable = Type.Object({
  code: Type.Optional(Code),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
});
