import { ErrorCode, McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';

// Prompts for the jobs agents are most often asked to do, written as the steps a careful person would take with
// these tools: look before spending, ask the user, make retries safe, then report from what came back.

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
  text(args: Record<string, string>): string;
}

export const prompts: PromptDefinition[] = [
  {
    name: 'send_to_list_and_report_replies', title: 'Send to a list and report who replied',
    description: 'Send one message to a list of numbers as a campaign, then report delivery and who replied.',
    arguments: [
      { name: 'recipients', description: 'The numbers, separated by commas or new lines', required: true },
      { name: 'message', description: 'The text; {{name}} style placeholders are filled from merge data', required: true },
      { name: 'campaign', description: 'A name for the campaign (default: today\'s date)', required: false },
    ],
    text: (a) => [
      `Send this message as a campaign${a.campaign ? ` named "${a.campaign}"` : ''} to these recipients, then report who replied.`,
      '', `Message: ${a.message}`, `Recipients: ${a.recipients}`, '',
      'Steps:',
      '1. Call preview_message with the first recipient to see the parts and credits per message, and get_balance.',
      '2. Tell me how many recipients, the credits it will cost and the balance; wait for my confirmation.',
      '3. Call send_batch once with every recipient, the campaign name and a new idempotency_key (reuse that key if you retry).',
      '4. Report recipients_queued, invalid_numbers and opted_out_count from its result.',
      '5. When I ask for replies: get_campaign for delivery counts, and list_inbox (unread=true, date_from: the send\'s',
      '   time) for the replies from these numbers. List who replied with their text, and who opted out.',
    ].join('\n'),
  },
  {
    name: 'answer_unread_replies', title: 'Answer unread replies',
    description: 'Go through unread replies, draft answers for approval, send the approved ones and mark each read.',
    arguments: [{ name: 'tone', description: 'How the answers should sound (default: brief and friendly)', required: false }],
    text: (a) => [
      'Help me answer the unread replies in the SMS inbox.', '',
      '1. Call list_inbox with unread=true; get_conversation shows what was said before with a number.',
      `2. Draft an answer to each (${a.tone ?? 'brief and friendly'}); show me every draft with its credits and wait for my approval.`,
      '   Opt-outs (is_optout) get no answer: just tell me about them.',
      '3. Send each approved answer with reply_to_inbound and its own new idempotency_key.',
      '4. Mark every reply you handled read with mark_inbound_read, and tell me what was sent.',
    ].join('\n'),
  },
];

/** prompts/get: the prompt's text for the given arguments; a missing required argument is a protocol error. */
export function renderPrompt(prompt: PromptDefinition, args: Record<string, string>): GetPromptResult {
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length > 0) throw new McpError(ErrorCode.InvalidParams, `Missing argument ${missing.join(', ')} for prompt ${prompt.name}`);
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }] };
}
