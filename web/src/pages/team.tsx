import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ApiError, GET, POST, type Body, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, Card, Checkbox, DataTable, ErrorText, Input, Loading, Notice, Page, Secret, Select } from '../ui.tsx';
import { abilities, ROLE_WORDS, whyNot, type Permission } from './team-words.ts';
import { ChangeMember, RemoveMember, ResetTwoFactor } from './team-member.tsx';

export type User = Res<'/team'>['users'][number];

const ALL: Permission[] = ['read', 'send', 'billing', 'manage'];

/**
 * The invite form, for one's own team (POST /team) or a sub-account's (POST /account/{id}/users). What the
 * signed-in user cannot give is disabled, with the reason beside it.
 */
export function InviteForm({ account, onDone, mine = ALL }: { account?: string; onDone: () => void; mine?: Permission[] }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [canSend, setCanSend] = useState(mine.includes('send'));
  const [canBilling, setCanBilling] = useState(false);
  const mayAdmin = ALL.every((p) => mine.includes(p));
  const invite = useMutation({
    mutationFn: () => {
      const body: Body<'/team'> = { email, ...(name ? { name } : {}), role, ...(role === 'member' ? { can_send: canSend, can_billing: canBilling } : {}) };
      return account ? POST('/account/{id}/users', { params: { path: { id: account } }, body }) : POST('/team', { body });
    },
    onSuccess: () => { setEmail(''); setName(''); onDone(); },
  });
  const err = invite.error instanceof ApiError ? invite.error : null;
  const emailError = err?.forField('email') ?? (err?.code === 'email_taken' ? err.message : undefined);
  const submit = (e: FormEvent) => { e.preventDefault(); invite.mutate(); };
  return (
    <div className="space-y-3">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" noValidate>
        <Input label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} />
        <Input label="Name (optional)" value={name} onChange={(e) => setName(e.target.value)} />
        <Select label="Role" value={role} onChange={(e) => setRole(e.target.value as 'member' | 'admin')}
          hint={mayAdmin ? 'Admins manage the team, keys and settings, send and handle billing' : 'Only someone who can do everything can make an admin'}>
          <option value="member">Member</option>
          <option value="admin" disabled={!mayAdmin}>Admin</option>
        </Select>
        {role === 'member' && (
          <div className="space-y-2">
            <Checkbox label={`May send messages${mine.includes('send') ? '' : ' (you cannot give this: you cannot send)'}`}
              checked={canSend && mine.includes('send')} disabled={!mine.includes('send')} onChange={(e) => setCanSend(e.target.checked)} />
            <Checkbox label={`May move credits and buy numbers${mine.includes('billing') ? '' : ' (you cannot give this: you do not handle billing)'}`}
              checked={canBilling && mine.includes('billing')} disabled={!mine.includes('billing')} onChange={(e) => setCanBilling(e.target.checked)} />
          </div>
        )}
        <div><Button type="submit" disabled={invite.isPending}>Invite</Button></div>
      </form>
      {err && !emailError && <ErrorText error={err} />}
      {invite.data && <Secret label={`Invite link for ${invite.data.user.email} (give it to them; valid 7 days)`} value={invite.data.invite_link} />}
    </div>
  );
}

/** Members with their role and what they can do in words; actions only where the signed-in user may act. */
export function UserTable({ users, reasonFor, onRemove, onChange, onResetTwoFactor }: {
  users: User[]; reasonFor?: (u: User) => string | null; onRemove?: (u: User) => void; onChange?: (u: User) => void; onResetTwoFactor?: (u: User) => void;
}) {
  const col = createColumnHelper<User>();
  const why = (u: User) => reasonFor?.(u) ?? (u.source === 'parent' ? 'A member of the parent account' : u.role === 'owner' ? 'The owner: nobody can remove them' : null);
  const columns = [
    col.accessor('email', { header: 'Email' }),
    col.accessor('name', { header: 'Name', cell: (c) => c.getValue() ?? '—' }),
    col.accessor('role', { header: 'Role', cell: (c) => ROLE_WORDS[c.getValue()] ?? c.getValue() }),
    col.display({ id: 'perms', header: 'Can', cell: (c) => abilities(c.row.original) }),
    col.accessor('two_factor', { header: 'Two-factor', cell: (c) => (c.getValue() === undefined ? '—' : c.getValue() ? 'On' : 'Off') }),
    col.accessor('created_at', { header: 'Added', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'actions', header: 'Actions',
      cell: (c) => {
        const u = c.row.original;
        const reason = why(u);
        if (reason) return <span className="text-sm text-slate-600">{reason}</span>;
        return (
          <div className="flex flex-wrap gap-2">
            {onChange && <Button kind="secondary" onClick={() => onChange(u)} aria-label={`Change ${u.email}`}>Change</Button>}
            {onResetTwoFactor && u.two_factor && <Button kind="secondary" onClick={() => onResetTwoFactor(u)} aria-label={`Reset two-factor authentication of ${u.email}`}>Reset two-factor</Button>}
            {onRemove && <Button kind="danger" onClick={() => onRemove(u)} aria-label={`Remove ${u.email}`}>Remove</Button>}
          </div>
        );
      },
    }),
  ];
  return <DataTable data={users} columns={columns} caption="Team members" empty="No members yet." pageSize={20} />;
}

function TransferOwnership({ admins, onDone }: { admins: User[]; onDone: () => void }) {
  const [to, setTo] = useState('');
  const transfer = useMutation({ mutationFn: () => POST('/team/transfer-ownership', { body: { member_id: to } }), onSuccess: onDone });
  if (admins.length === 0) return <p className="text-sm text-slate-700">Ownership goes to an admin: make someone an admin first.</p>;
  return (
    <div className="space-y-3">
      <Select label="New owner" value={to} onChange={(e) => setTo(e.target.value)} hint="You become an admin. Only the new owner can hand the account over again.">
        <option value="">Choose an admin…</option>
        {admins.map((a) => <option key={a.id} value={a.id}>{a.name ? `${a.name} (${a.email})` : a.email}</option>)}
      </Select>
      <Button kind="danger" disabled={!to || transfer.isPending}
        onClick={() => { if (confirm('Hand the account over? You become an admin.')) transfer.mutate(); }}>Hand the account over</Button>
      <ErrorText error={transfer.error} />
    </div>
  );
}

export default function TeamPage({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const [changing, setChanging] = useState<User | null>(null);
  const [removing, setRemoving] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const team = useQuery({ queryKey: ['team'], queryFn: () => GET('/team') });
  const me = { id: session.user.id, permissions: session.user.permissions };
  const refresh = () => {
    setChanging(null); setRemoving(null); setResetting(null);
    void qc.invalidateQueries({ queryKey: ['team'] });
    void qc.invalidateQueries({ queryKey: ['session'] });
    void qc.invalidateQueries({ queryKey: ['keys'] });
  };
  const users = team.data?.users ?? [];
  const mayManage = me.permissions.includes('manage');
  return (
    <Page title="Team">
      <Notice>
        You are {session.user.role === 'admin' ? 'an admin' : session.user.role === 'owner' ? 'the owner' : 'a member'}. What you can do: {abilities(session.user).toLowerCase()}.
      </Notice>
      <Card title="Invite someone">
        {mayManage
          ? <InviteForm mine={me.permissions} onDone={refresh} />
          : <p className="text-sm text-slate-700">Only admins and the owner invite people. Ask one of them to add your colleague.</p>}
      </Card>
      <ErrorText error={team.error} />
      {team.isPending ? <Loading /> : <UserTable users={users} reasonFor={(u) => whyNot(me, u)} onChange={(u) => { setRemoving(null); setResetting(null); setChanging(u); }}
        onRemove={(u) => { setChanging(null); setResetting(null); setRemoving(u); }} onResetTwoFactor={(u) => { setChanging(null); setRemoving(null); setResetting(u); }} />}
      {changing && <ChangeMember user={changing} mine={me.permissions} onDone={refresh} onCancel={() => setChanging(null)} />}
      {removing && <RemoveMember user={removing} onDone={refresh} onCancel={() => setRemoving(null)} />}
      {resetting && <ResetTwoFactor user={resetting} onDone={refresh} onCancel={() => setResetting(null)} />}
      {session.user.role === 'owner' && (
        <Card title="Hand the account over">
          <TransferOwnership admins={users.filter((u) => u.role === 'admin' && u.source !== 'parent')} onDone={refresh} />
        </Card>
      )}
    </Page>
  );
}
