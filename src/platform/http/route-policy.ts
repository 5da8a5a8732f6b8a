import { ROUTE_PERMISSIONS, type RoutePermission } from '../permissions.ts';

// The committed route policy (route-policy.txt beside this file): every API route and its one permission. The
// route-policy test compares the routes' declarations to it; the owner's guide (docs/permissions.md) is made from it.

export interface PolicyLine {
  method: string;
  url: string;
  permission: RoutePermission | 'any';
  description: string;
}

/** Reads the table; throws on a line it cannot read, naming it. */
export function parsePolicy(text: string): PolicyLine[] {
  const lines: PolicyLine[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)\s+(\S+)\s+(.+)$/.exec(line);
    const permission = match?.[3] as PolicyLine['permission'] | undefined;
    if (!match || !permission || !(permission === 'any' || (ROUTE_PERMISSIONS as readonly string[]).includes(permission))) {
      throw new Error(`route-policy.txt line ${i + 1}: expected "METHOD /path permission description": ${raw}`);
    }
    lines.push({ method: match[1]!, url: match[2]!, permission, description: match[4]!.trim() });
  }
  return lines;
}

const SECTIONS: Array<{ permission: RoutePermission | 'any'; title: string; intro: string }> = [
  { permission: 'read', title: 'Read (`read`)', intro: 'Everyone on the team, and every key with the `read` scope, can see:' },
  { permission: 'send', title: 'Send (`send`)', intro: 'Admins, the owner, members allowed to send, and keys with the `send` scope can:' },
  {
    permission: 'billing', title: 'Billing (`billing`)',
    intro: 'Admins, the owner, members allowed to handle billing, and keys with the `billing` scope can:',
  },
  { permission: 'manage', title: 'Manage (`manage`)', intro: 'Admins, the owner, and keys with the `manage` scope can:' },
  { permission: 'owner', title: 'Owner only (`owner`)', intro: 'Only the owner, signed in to the dashboard (no key can), can:' },
  { permission: 'self', title: 'Your own sign-in (`self`)', intro: 'Every signed-in user, about themselves only (no key can):' },
  { permission: 'any', title: 'Assistants (MCP)', intro: 'Each tool needs the permission of the route it stands on:' },
];

const HEAD = `# Roles and permissions

<!-- Generated from src/platform/http/route-policy.txt by \`npm run docs:permissions\`: edit that table, not this page. -->

Everyone who signs in to your account's dashboard has a **role**, and every API key has **scopes**. Both come from
one set of permissions, and every request is checked against the one permission its route needs, whether it
comes from the dashboard, an API key or an assistant through MCP.

| Permission | What it allows |
|---|---|
| \`read\` | See messages, replies, reports, balance, numbers, settings, the team and keys |
| \`send\` | Send and cancel messages, reply to replies, add opt-outs |
| \`billing\` | Move credits to and from sub-accounts, buy numbers, move numbers between accounts |
| \`manage\` | Change the account: team, API keys, webhooks, settings, sub-accounts, opt-outs removed by hand |
| \`owner\` | Hand the account to someone else: the owner's alone |

## Roles

| Role | read | send | billing | manage | owner |
|---|---|---|---|---|---|
| Owner (one per account) | yes | yes | yes | yes | yes |
| Admin | yes | yes | yes | yes | no |
| Member | yes | when allowed to send | when allowed to handle billing | no | no |

- Every account has exactly one **owner**. Nobody can remove the owner or change the owner's role. The owner hands
  the account over to an admin on the Team page (\`POST /team/transfer-ownership\`); the old owner becomes an admin.
- Admins and the owner invite people, remove them, and change their roles and permissions (\`PATCH /team/{memberId}\`).
  Nobody changes their own role, and nobody gives, takes away or touches a permission they do not hold themselves:
  an admin cannot reset the owner's second factor, and a key without \`billing\` cannot invite someone who has it.
- An **API key** holds at most the permissions of whoever made it, and belongs to them: when that person is removed
  their keys are revoked, and when they lose a permission their keys lose it at the same moment (a key left with
  none is revoked). A key created without \`scopes\` holds \`read\`, \`send\`, \`billing\` and \`manage\`. No key holds
  \`owner\`.
- **Sub-accounts**: a parent's owner and admins manage a sub-account while it is managed by its parent, including one
  with no users of its own. A parent's user acting on a sub-account (or on one whose team includes the parent's)
  does so with their own permissions. A sub-account's first user becomes its owner.
- A refusal answers 403 \`permission_denied\` to a signed-in user and 403 \`insufficient_scope\` to a key, and changes
  nothing.

## What each permission allows
`;

/** The owner's guide, made from the table: the same input always gives the same page. */
export function renderGuide(lines: PolicyLine[]): string {
  const parts = [HEAD];
  for (const section of SECTIONS) {
    const routes = lines.filter((l) => l.permission === section.permission);
    if (routes.length === 0) continue;
    parts.push(`\n### ${section.title}\n\n${section.intro}\n\n| Route | What it does |\n|---|---|\n`);
    for (const r of routes) parts.push(`| \`${r.method} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}\` | ${r.description.replace(/\|/g, '\\|')} |\n`);
  }
  return parts.join('');
}
