import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ApiError, del, get, post } from '../lib/api.ts';
import { When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, Card, Checkbox, DataTable, ErrorText, Input, Loading, Page, Secret } from '../ui.tsx';

export interface User { id: string; email: string; name: string | null; can_send: boolean; can_billing: boolean; source: string; created_at: string }

/** The invite form, for one's own team (POST /team) or a sub-account's (POST /account/{id}/users). */
export function InviteForm({ path, onDone }: { path: string; onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [canSend, setCanSend] = useState(true);
  const [canBilling, setCanBilling] = useState(false);
  const invite = useMutation({
    mutationFn: () => post<{ invite_link: string; user: User }>(path, { email, ...(name ? { name } : {}), can_send: canSend, can_billing: canBilling }),
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
        <Checkbox label="Can send messages (can_send)" checked={canSend} onChange={(e) => setCanSend(e.target.checked)} />
        <Checkbox label="Can move credits and lease numbers (can_billing)" checked={canBilling} onChange={(e) => setCanBilling(e.target.checked)} />
        <div><Button type="submit" disabled={invite.isPending}>Invite</Button></div>
      </form>
      {err && !emailError && <ErrorText error={err} />}
      {invite.data && <Secret label={`Invite link for ${invite.data.user.email} (give it to them; valid 7 days)`} value={invite.data.invite_link} />}
    </div>
  );
}

export function UserTable({ users, me, onRemove }: { users: User[]; me?: string; onRemove?: (u: User) => void }) {
  const col = createColumnHelper<User>();
  const columns = [
    col.accessor('email', { header: 'Email' }),
    col.accessor('name', { header: 'Name', cell: (c) => c.getValue() ?? '—' }),
    col.display({ id: 'perms', header: 'Permissions', cell: (c) => [c.row.original.can_send && 'send', c.row.original.can_billing && 'billing'].filter(Boolean).join(', ') || 'read only' }),
    col.accessor('created_at', { header: 'Added', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'remove', header: 'Remove',
      cell: (c) => c.row.original.source === 'parent' ? 'from the parent account' : c.row.original.id === me ? 'you' : onRemove
        ? <Button kind="danger" onClick={() => onRemove(c.row.original)} aria-label={`Remove ${c.row.original.email}`}>Remove</Button> : null,
    }),
  ];
  return <DataTable data={users} columns={columns} caption="Team members" empty="No members yet." pageSize={20} />;
}

export default function TeamPage({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const team = useQuery({ queryKey: ['team'], queryFn: () => get<{ users: User[] }>('/team') });
  const remove = useMutation({ mutationFn: (u: User) => del(`/team/${u.id}`), onSuccess: () => { void qc.invalidateQueries({ queryKey: ['team'] }); } });
  return (
    <Page title="Team">
      <Card title="Invite someone">
        <InviteForm path="/team" onDone={() => void qc.invalidateQueries({ queryKey: ['team'] })} />
      </Card>
      <ErrorText error={team.error ?? remove.error} />
      {team.isPending ? <Loading /> : <UserTable users={team.data?.users ?? []} me={session.user.id}
        onRemove={(u) => { if (confirm(`Remove ${u.email}? They are signed out at once.`)) remove.mutate(u); }} />}
    </Page>
  );
}
