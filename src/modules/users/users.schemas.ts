import { Type } from '@fastify/type-provider-typebox';
import { Timestamp, Uuid } from '../../platform/http/schemas.ts';

export const MemberParams = Type.Object({ id: Uuid, memberId: Uuid });

export const User = Type.Object({
  id: Uuid,
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  can_send: Type.Boolean(),
  can_billing: Type.Boolean(),
  status: Type.String({ description: 'active' }),
  source: Type.String({ description: 'direct, or parent for a member of the parent account' }),
  created_at: Timestamp,
});
export const UserList = Type.Object({ users: Type.Array(User) });

export const Invite = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  can_send: Type.Optional(Type.Boolean()),
  can_billing: Type.Optional(Type.Boolean()),
});
export const Invited = Type.Object({
  success: Type.Boolean(), user: User, email_sent: Type.Boolean({ description: 'false: Tasman sends no email' }),
  invite_link: Type.String({ description: 'Give it to the user: it opens the page where they choose a password (valid 7 days)' }),
});
export const TeamMemberParams = Type.Object({ memberId: Uuid });

export const Access = Type.Object({
  managed_by_parent: Type.Boolean(),
  team_access_from_parent: Type.Boolean(),
  direct_team: Type.Array(User),
  eligible_parent_team: Type.Array(User),
});
export const AccessUpdate = Type.Object({
  managed_by_parent: Type.Optional(Type.Boolean()),
  team_access_from_parent: Type.Optional(Type.Boolean()),
});
