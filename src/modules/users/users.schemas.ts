import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Role, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const MemberId = described(Uuid, 'The user\'s id (the member id), as the users list shows it');
export const MemberParams = Type.Object({
  id: described(Uuid, 'The sub-account\'s id: a direct, open sub-account of the caller (anything else answers 404)'),
  memberId: MemberId,
});

export const User = Type.Object({
  id: MemberId,
  email: Type.String({ description: 'The address they sign in with' }),
  name: nullable(Type.String(), 'Their name, or null'),
  can_send: Type.Boolean({ description: 'They may send messages (and spend credits)' }),
  can_billing: Type.Boolean({ description: 'They may see and manage billing: credits, number rental' }),
  role: Role,
  status: Type.String({ description: 'active' }),
  source: Type.String({ description: 'direct, or parent for a member of the parent account' }),
  two_factor: Type.Boolean({ description: 'They sign in with a second factor (an authenticator app); the owner or an admin resets it with DELETE /team/{id}/two-factor' }),
  created_at: described(Timestamp, 'When they were invited'),
  invited_at: described(Timestamp, 'The same instant as created_at (the name some client libraries read)'),
}, { description: 'A dashboard user' });
export const UserList = Type.Object({
  users: Type.Array(User, { description: 'The account\'s users (on GET /team, then the parent\'s when the account shares its parent\'s team)' }),
}, { description: 'The users' });

export const Invite = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320, description: 'Their email: unique among the account\'s users (409 email_taken)' }),
  name: Type.Optional(nullable(Type.String({ maxLength: 200 }), 'Their name (optional)')),
  can_send: Type.Optional(Type.Boolean({ description: 'May send messages; default true. A caller may grant only what it holds' })),
  can_billing: Type.Optional(Type.Boolean({ description: 'May manage billing; default false. A caller may grant only what it holds' })),
  role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('member')], {
    description: 'member (default) or admin; an account\'s first user becomes its owner',
  })),
}, { description: 'Who to invite, and what they may do' });
export const Invited = Type.Object({
  success: Type.Boolean({ description: 'true: the user is added' }),
  user: User,
  email_sent: Type.Boolean({ description: 'true: the invitation was emailed (SMTP_URL); false: it waits in the operator\'s outbox, and invite_link is the way in' }),
  invite_link: Type.String({ description: 'Give it to the user: it opens the page where they choose a password (valid 7 days)' }),
}, { description: 'The user is added and can sign in once they choose a password' });
export const TeamMemberParams = Type.Object({ memberId: described(Uuid, 'The user\'s id, as GET /team lists it') });

export const Access = Type.Object({
  managed_by_parent: Type.Boolean({ description: 'The parent may change the sub-account' }),
  team_access_from_parent: Type.Boolean({ description: 'The parent\'s users may sign in to the sub-account\'s dashboard' }),
  direct_team: Type.Array(User, { description: 'The sub-account\'s own users' }),
  eligible_parent_team: Type.Array(User, { description: 'The parent\'s users, who get in when team_access_from_parent is true' }),
}, { description: 'Who manages the sub-account and who may use it' });
export const AccessUpdate = Type.Object({
  managed_by_parent: Type.Optional(Type.Boolean({ description: 'false hands the sub-account to its own owner for good: the parent can no longer change it (it needs an email first)' })),
  team_access_from_parent: Type.Optional(Type.Boolean({ description: 'Let the parent\'s users sign in to the sub-account\'s dashboard' })),
}, { description: 'The settings to change; the ones left out keep their value' });

export const USER_EXAMPLE = {
  id: EX.user, email: 'reception@harbourdental.example', name: 'Priya Shah', can_send: true, can_billing: false, role: 'member', status: 'active', source: 'direct', two_factor: false,
  created_at: EX.created, invited_at: EX.created,
};
export const INVITED_EXAMPLE = {
  success: true, user: USER_EXAMPLE, email_sent: false, invite_link: 'https://sms.example.com/app/invite#5mQ1v8ZtR0cW2yK7pN4eH9bJ3fL6xD0a',
};
export const INVITE_SAMPLE = { email: 'reception@harbourdental.example', name: 'Priya Shah', can_send: true, can_billing: false };

export const MemberUpdate = Type.Object({
  role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('member')], { description: 'admin or member; the owner\'s role changes only by a transfer' })),
  can_send: Type.Optional(Type.Boolean({ description: 'A member may send messages (an admin always may)' })),
  can_billing: Type.Optional(Type.Boolean({ description: 'A member may move credits and buy or move numbers (an admin always may)' })),
}, { minProperties: 1, description: 'What to change; what is left out keeps its value' });
export const MemberUpdated = Type.Object({
  user: User,
  keys_revoked: Type.Integer({ description: 'The member\'s API keys revoked because they hold none of its permissions any more' }),
  keys_narrowed: Type.Integer({ description: 'The member\'s API keys cut down to its permissions' }),
}, { description: 'The member as changed, and what happened to their API keys' });
export const MemberRemoved = Type.Object({
  ok: Type.Boolean({ description: 'true: the user is removed' }),
  keys_revoked: Type.Integer({ description: 'The user\'s API keys, revoked with them' }),
}, { description: 'The user is removed, and their API keys revoked' });
export const OwnershipTransfer = Type.Object({
  member_id: described(Uuid, 'The admin who becomes the owner, as GET /team lists them'),
}, { description: 'Who takes the account over' });
export const OwnershipTransferred = Type.Object({
  owner: User, previous_owner: User,
}, { description: 'The new owner, and the caller, now an admin' });
