import { Option, type Command } from 'commander';
import { cell, pageLine, table } from './format.ts';
import type { View } from './admin-views.ts';

// `tasman admin sender-id requests|approve|reject`: the operator's review of the accounts' Sender ID requests
// (`sender-id list` stays the list of registrations). Registered by admin.ts with its own helpers.

type Row = Record<string, unknown>;
type Method = 'GET' | 'POST';

export interface AdminKit {
  callApi(method: Method, path: string, body?: unknown, view?: View): Promise<void>;
  printing(command: Command): Command;
  paged(command: Command): Command;
  query(params: Record<string, string | number | undefined>): string;
}

const COLUMNS: Array<[string, string]> = [
  ['REQUEST', 'id'], ['SENDER ID', 'sender_id'], ['ABN', 'abn'], ['ACCOUNT', 'business_name'], ['STATUS', 'status'],
  ['ASKED', 'created_at'], ['USE', 'use_description'], ['REASON', 'reason'],
];

/** The page as a table, and what to run next. */
const requestsView: View = (answer) => {
  const rows = (answer.requests as Row[] | undefined) ?? [];
  const footer = pageLine({ shown: rows.length, total: answer.total as number, offset: answer.offset as number, limit: answer.limit as number }, 'requests');
  if (rows.length === 0) return footer;
  return `${table(COLUMNS.map(([h]) => h), rows.map((row) => COLUMNS.map(([, name]) => cell(row[name]))))}\n\n${footer}`;
};

export function senderRequestCommands(senderId: Command, kit: AdminKit): void {
  kit.paged(senderId.command('requests').description('Sender ID requests to review, oldest first')
    .addOption(new Option('--status <status>', 'which ones (default requested: waiting)').choices(['requested', 'approved', 'rejected', 'all'])))
    .action((o: { status?: string; limit: number; offset: number }) => kit.callApi('GET', `/admin/sender-id-requests${kit.query({
      status: o.status, limit: o.limit, offset: o.offset,
    })}`, undefined, requestsView));
  kit.printing(senderId.command('approve').description('approve a request after checking the national register: registers the Sender ID to the account'))
    .argument('<request-id>', 'the request\'s id (from `sender-id requests`)')
    .action((id: string) => kit.callApi('POST', `/admin/sender-id-requests/${encodeURIComponent(id)}/approve`));
  kit.printing(senderId.command('reject').description('reject a request; the account reads the reason'))
    .argument('<request-id>', 'the request\'s id (from `sender-id requests`)')
    .requiredOption('--reason <text>', 'why, as the account will read it')
    .action((id: string, o: { reason: string }) => kit.callApi('POST', `/admin/sender-id-requests/${encodeURIComponent(id)}/reject`, { reason: o.reason }));
}
