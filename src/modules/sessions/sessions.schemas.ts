import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, PermissionName, Role, Uuid } from '../../platform/http/schemas.ts';

const Password = Type.String({ minLength: 1, maxLength: 1000, description: 'The user\'s password' });
const Token = Type.String({ minLength: 20, maxLength: 200, description: 'The token after # in the invite link' });
export const Login = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320, description: 'The email the user was invited with (any case)' }),
  password: Password,
}, { description: 'The user\'s credentials' });
export const OperatorLogin = Type.Object({ token: Type.String({ minLength: 1, maxLength: 500, description: 'The operator token (TASMAN_ADMIN_TOKEN)' }) });
export const InviteToken = Type.Object({ token: Token });
export const InviteAccept = Type.Object({
  token: Token,
  password: described(Password, 'The password to set: at least 12 characters, not a common one (400 weak_password otherwise)'),
});
export const PasswordForgot = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320, description: 'The email you sign in with' }) });
export const PasswordReset = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 200, description: 'The token from the reset link (after the #)' }),
  password: Type.String({ minLength: 1, maxLength: 1000, description: 'The new password' }),
});
export const InviteInfo = Type.Object({
  email: Type.String({ description: 'Who the invite is for' }),
  business_name: Type.String({ description: 'The account it joins' }),
}, { description: 'The invite is valid' });

export const SessionInfo = Type.Object({
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token on every write made with the session cookie' }),
  user: Type.Object({
    id: described(Uuid, 'The user\'s id'), email: Type.String({ description: 'Their email' }), name: nullable(Type.String(), 'Their name, or null'),
    can_send: Type.Boolean({ description: 'They may send messages' }), can_billing: Type.Boolean({ description: 'They may manage billing' }),
    role: Role,
    permissions: Type.Array(PermissionName, { description: 'What they may do (docs/permissions.md)' }),
    two_factor: Type.Boolean({ description: 'They sign in with a second factor (an authenticator app)' }),
  }, { description: 'Who is signed in' }),
  account: Type.Object({
    id: described(Uuid, 'The account\'s id'), business_name: Type.String({ description: 'The business\'s name' }),
    parent_account_id: nullable(Uuid, 'Its parent\'s id; null for a top-level account'),
    hierarchy_enabled: Type.Boolean({ description: 'It may have sub-accounts' }),
    account_status: Type.String({ description: 'active, suspended or closed' }),
    two_factor_required: Type.Boolean({ description: 'The owner requires a second factor: until the user has one (user.two_factor), every route but /two-factor answers 403 two_factor_required' }),
  }, { description: 'The account they are signed in to' }),
}, { description: 'The session (its token is in the HttpOnly cookie tasman_session)' });
export const OperatorSessionInfo = Type.Object({
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token on every write made with the operator cookie' }),
  operator: Type.Optional(Type.Union([
    Type.Object({ id: Type.String({ description: 'The operator\'s id' }), name: Type.String({ description: 'Their name' }) }, { description: 'The named operator signed in' }),
    Type.Null(),
  ], { description: 'The named operator signed in (their name and password), or null when signed in with the operator token' })),
}, { description: 'The operator console session (its token is in the HttpOnly cookie tasman_operator)' });

// The optional TOTP second factor.
export const SecondFactorRequired = Type.Object({
  second_factor_required: Type.Literal(true, { description: 'The password is right; a code is still needed' }),
  challenge: Type.String({ description: 'Send it with the code to POST /session/two-factor' }),
  expires_in: Type.Integer({ description: 'Seconds the challenge waits for the code' }),
});
const Code = Type.String({ minLength: 6, maxLength: 40, description: 'Six digits from the authenticator app, or a recovery code' });
export const SecondFactor = Type.Object({
  challenge: Type.String({ minLength: 20, maxLength: 200, description: 'The challenge POST /session answered with 202' }),
  code: Code,
});
export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean({ description: 'Sign-in asks for a code' }),
  pending: Type.Boolean({ description: 'An enrolment waits for its first code' }),
  recovery_codes_left: Type.Integer({ description: 'Unused recovery codes' }),
}, { description: 'The signed-in user\'s second factor' });
export const TwoFactorEnrolment = Type.Object({
  secret: Type.String({ description: 'Base32, for typing into an authenticator app; shown once' }),
  otpauth_uri: Type.String({ description: 'The same secret as an otpauth:// URI (what a QR code would hold)' }),
});
export const TwoFactorConfirm = Type.Object({ code: Type.String({ minLength: 6, maxLength: 12, description: 'The six digits the authenticator app shows now' }) });
export const TwoFactorEnabled = Type.Object({
  enabled: Type.Literal(true, { description: 'Sign-in now asks for a code' }),
  recovery_codes: Type.Array(Type.String(), { description: 'Ten one-time codes for when the device is lost; shown once' }),
});
export const TwoFactorDisable = Type.Object({
  code: Type.Optional(Code),
  password: Type.Optional(described(Password, 'The user\'s password (instead of a code)')),
}, { description: 'Proof: a current code, a recovery code or the password' });

const USER = {
  id: EX.user, email: 'reception@harbourdental.example', name: 'Priya Shah', can_send: true, can_billing: false, role: 'member', permissions: ['read', 'send'], two_factor: true,
};
const ACCOUNT = { id: EX.account, business_name: 'Harbour Dental Group', parent_account_id: null, hierarchy_enabled: true, account_status: 'active', two_factor_required: false };
export const SESSION_EXAMPLE = { csrf_token: 'Xq3v9Lr0T2m7yKb5Nf8cWd1eHs4jPa6u', user: USER, account: ACCOUNT };
