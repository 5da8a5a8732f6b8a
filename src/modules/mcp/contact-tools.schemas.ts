import { Type } from 'typebox';
import { described, Uuid } from '../../platform/http/schemas.ts';
import { ContactPage, ContactQuery } from '../contacts/contacts.schemas.ts';
import { BatchRequest, BatchResult, Message } from '../messages/messages.schemas.ts';
import { TemplateList } from '../templates/templates.routes.ts';
import type { BatchPreview } from '../messages/messages.schemas.ts';
import { ASK, keyed, READ, READ_NOTHING, SPENDS, type ToolDefinition } from './tool-definition.schemas.ts';

// The address book's tools: find contacts and templates, and send to a contact list. A list's recipients are in
// the database, not in the arguments, so send_to_list's credit cap is asked of the batch preview (the same
// route's rules, free) just before the send; a list that grows between the two can pass the cap by what it grew.

// list_id and message required (no template_id: list_templates gives the text), and only the options an agent
// needs, to keep the tool list small (decision 0072).
const ListSend = Type.Object({ list_id: described(Uuid, 'A list of the account'), message: Message, sender: BatchRequest.properties.sender, urgent: BatchRequest.properties.urgent });
const { q, list_id: listId, cursor } = ContactQuery.properties;
const ContactSearch = Type.Object({ q, list_id: listId, cursor });

export const contactTools: ToolDefinition[] = [
  {
    name: 'list_contacts', title: 'List contacts', op: 'listContacts',
    description: 'Contacts with their fields and lists, 50 a page, by q or list_id.',
    input: ContactSearch, output: ContactPage, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'list_templates', title: 'List message templates', op: 'listTemplates',
    description: 'Saved message texts with {{fields}}, to send as message.',
    ...READ_NOTHING, output: TemplateList,
  },
  {
    name: 'send_to_list', title: 'Send to a contact list', op: 'sendBatch',
    description: `Send message to each contact of list_id, merging {{first_name}}, {{last_name}} and their fields. 1 credit per part per contact. ${ASK} Scope send.`,
    input: keyed(ListSend), output: BatchResult, annotations: SPENDS,
    request: (args) => ({ body: args }),
    credits: async (args, _link, api) => {
      const preview = await api('previewBatch', { body: args }, 'send_to_list') as Pick<BatchPreview, 'total_credits'>;
      return preview.total_credits;
    },
  },
];
