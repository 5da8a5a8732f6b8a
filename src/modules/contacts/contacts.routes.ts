import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Ok } from '../../platform/http/schemas.ts';
import type { ContactService } from './contacts.service.ts';
import type { ListService } from './lists.service.ts';
import {
  CONTACT_EXAMPLE, ContactPage, ContactQuery, ContactView, CreateContact, IMPORT_MAX_ROWS, ImportRequest, ImportSummary, LIST_EXAMPLE, LIST_ID,
  ListBody, ListPage, ListView, MembersBody, MembersResult, PatchContact,
} from './contacts.schemas.ts';

const tags = ['Contacts'];
/** An import's CSV of up to 50,000 rows is larger than the API's usual body limit. */
const IMPORT_BODY_LIMIT = 8 * 1024 * 1024;
const IMPORT_SAMPLE = { csv: 'phone,first_name,last_name,clinic\n0412 345 678,Ana,Silva,Manly\n0423 456 789,Tom,Ng,Bondi\n', list_id: LIST_ID };

/** The services these routes call, and nothing else. */
export type ContactRoutesDeps = { contacts: ContactService; lists: ListService };

// The account's address book (additions to the interface): contacts, lists, and CSV import. Sending to a list is
// /send-batch with list_id.
export const contactRoutes: FastifyPluginAsyncTypebox<ContactRoutesDeps> = async (app, { contacts, lists }) => {
  app.post('/contacts', {
    config: { contract: { sample: { body: { phone: '0412 345 678', first_name: 'Ana', last_name: 'Silva', fields: { clinic: 'Manly' } } }, response: CONTACT_EXAMPLE, errors: ['invalid_number', 'contact_exists', 'not_found'] }, scope: 'send' },
    schema: {
      tags, summary: 'Add a contact',
      description: 'Adds a contact: a mobile number (unique in the account: 409 contact_exists), names, email and custom merge fields, optionally into lists (404 for a list not the account\'s). A number on the opt-out list is added marked opted_out, and sends skip it. Needs the send scope.',
      body: CreateContact, response: { 201: ContactView },
    },
  }, async (request, reply) => reply.status(201).send(await contacts.create(request.actor, request.body)));

  app.get('/contacts', {
    config: { contract: { response: { contacts: [CONTACT_EXAMPLE], next_cursor: null }, errors: [] }, scope: 'read' },
    schema: {
      tags, summary: 'The account\'s contacts (search, filter by list, cursor pagination)',
      description: 'Pages through the contacts in the order they were added; q matches part of a name or of the number, list_id keeps one list\'s. Pass next_cursor back as cursor. Needs the read scope.',
      querystring: ContactQuery, response: { 200: ContactPage },
    },
  }, async (request) => contacts.list(request.actor, request.query));

  app.post('/contacts/import', {
    bodyLimit: IMPORT_BODY_LIMIT,
    config: { contract: { sample: { body: IMPORT_SAMPLE }, response: { created: 2, updated: 0, opted_out: 0, invalid: [] }, errors: ['not_found'] }, scope: 'send' },
    schema: {
      tags, summary: `Import contacts from a CSV (up to ${IMPORT_MAX_ROWS.toLocaleString('en-AU')} rows)`,
      description: 'Reads a CSV with a header row: the phone column (phone, mobile or number, or mapped in columns), first_name, last_name, email, and any other column as a custom field. Local numbers are read in the account\'s country. A number the account has is updated (empty cells keep what it had), a new one created; all in one transaction, optionally into list_id. Answers the counts and each invalid row with its reason. Needs the send scope.',
      body: ImportRequest, response: { 200: ImportSummary },
    },
  }, async (request) => contacts.importCsv(request.actor, request.body));

  app.get('/contacts/:id', {
    config: { contract: { response: CONTACT_EXAMPLE, errors: ['not_found'] }, scope: 'read' },
    schema: { tags, summary: 'A contact', description: 'One contact, its lists and whether it opted out. Another account\'s id answers 404. Needs the read scope.', params: IdParams, response: { 200: ContactView } },
  }, async (request) => contacts.get(request.actor, request.params.id));

  app.patch('/contacts/:id', {
    config: { contract: { sample: { body: { first_name: 'Ana', fields: { clinic: 'Bondi' } } }, response: CONTACT_EXAMPLE, errors: ['not_found', 'invalid_number', 'contact_exists'] }, scope: 'send' },
    schema: {
      tags, summary: 'Change a contact', description: 'Changes the fields given; fields replaces the custom fields whole. A number another contact has answers 409 contact_exists. Needs the send scope.',
      params: IdParams, body: PatchContact, response: { 200: ContactView },
    },
  }, async (request) => contacts.patch(request.actor, request.params.id, request.body));

  app.delete('/contacts/:id', {
    config: { contract: { response: { ok: true }, errors: ['not_found'] }, scope: 'send' },
    schema: {
      tags, summary: 'Delete a contact (its opt-out stays)',
      description: 'Deletes the contact and its list memberships. An opt-out of its number is kept: the number stays on the opt-out list. Needs the send scope.',
      params: IdParams, response: { 200: Ok },
    },
  }, async (request) => contacts.remove(request.actor, request.params.id));

  app.post('/lists', {
    config: { contract: { sample: { body: { name: 'Manly patients' } }, response: LIST_EXAMPLE }, scope: 'send' },
    schema: { tags, summary: 'Create a contact list', description: 'Creates an empty list; add contacts with POST /lists/{id}/contacts or an import with list_id. Names need not be unique. Needs the send scope.', body: ListBody, response: { 201: ListView } },
  }, async (request, reply) => reply.status(201).send(await lists.create(request.actor, request.body)));

  app.get('/lists', {
    config: { contract: { response: { lists: [LIST_EXAMPLE] } }, scope: 'read' },
    schema: { tags, summary: 'The account\'s contact lists', description: 'Every list of the account, in the order they were made, each with how many contacts it holds. Needs the read scope.', response: { 200: ListPage } },
  }, async (request) => lists.list(request.actor));

  app.get('/lists/:id', {
    config: { contract: { response: LIST_EXAMPLE, errors: ['not_found'] }, scope: 'read' },
    schema: { tags, summary: 'A contact list', description: 'One list and its contact count (GET /contacts?list_id= pages its contacts). Needs the read scope.', params: IdParams, response: { 200: ListView } },
  }, async (request) => lists.get(request.actor, request.params.id));

  app.patch('/lists/:id', {
    config: { contract: { sample: { body: { name: 'Manly and Bondi patients' } }, response: LIST_EXAMPLE, errors: ['not_found'] }, scope: 'send' },
    schema: { tags, summary: 'Rename a contact list', description: 'Gives the list a new name; its contacts stay as they are. Another account\'s list answers 404. Needs the send scope.', params: IdParams, body: ListBody, response: { 200: ListView } },
  }, async (request) => lists.rename(request.actor, request.params.id, request.body));

  app.delete('/lists/:id', {
    config: { contract: { response: { ok: true }, errors: ['not_found'] }, scope: 'send' },
    schema: { tags, summary: 'Delete a contact list (its contacts stay)', description: 'Deletes the list; its contacts stay in the account. Needs the send scope.', params: IdParams, response: { 200: Ok } },
  }, async (request) => lists.remove(request.actor, request.params.id));

  const membersSample = { sample: { body: { contact_ids: [CONTACT_EXAMPLE.id] } }, response: { ok: true, changed: 1 }, errors: ['not_found' as const] };
  app.post('/lists/:id/contacts', {
    config: { contract: membersSample, scope: 'send' },
    schema: { tags, summary: 'Add contacts to a list', description: 'Adds the account\'s contacts among contact_ids; ones already in it, or not the account\'s, change nothing. Needs the send scope.', params: IdParams, body: MembersBody, response: { 200: MembersResult } },
  }, async (request) => lists.members(request.actor, request.params.id, request.body, 'add'));

  app.delete('/lists/:id/contacts', {
    config: { contract: membersSample, scope: 'send' },
    schema: {
      tags, summary: 'Remove contacts from a list', description: 'Removes contact_ids from the list; the contacts stay in the account. Needs the send scope.',
      params: IdParams, body: Type.Object(MembersBody.properties, { description: 'The contacts to remove' }), response: { 200: MembersResult },
    },
  }, async (request) => lists.members(request.actor, request.params.id, request.body, 'remove'));
};
