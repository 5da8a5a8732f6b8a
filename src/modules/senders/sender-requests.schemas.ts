import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

// Sender ID requests: the account's side (POST/GET /sender-ids) and the operator's (/admin/sender-id-requests).

const REQUEST_ID = '01938f50-1a2b-7c3d-8e4f-5a6b7c8d9e05';

export const SenderIdRequestBody = Type.Object({
  sender_id: Type.String({ minLength: 3, maxLength: 11, description: '3 to 11 letters, digits, spaces or & . _ -, with a letter' }),
  abn: Type.String({ minLength: 11, maxLength: 14, description: 'The ABN the Sender ID is registered to: 11 digits (spaces ignored) with valid check digits' }),
  use_description: Type.String({ minLength: 1, maxLength: 500, description: 'What the account sends as it (the operator reads it when reviewing)' }),
}, { description: 'The Sender ID asked for' });

const Status = Type.Union([Type.Literal('requested'), Type.Literal('approved'), Type.Literal('rejected')], {
  description: 'requested: waiting for the operator; approved: usable in sender; rejected: see reason',
});

export const SenderIdRequest = Type.Object({
  id: described(Uuid, 'The request\'s id'),
  sender_id: Type.String({ description: 'The Sender ID asked for' }),
  abn: Type.String({ description: 'Its ABN, 11 digits' }),
  use_description: Type.String({ description: 'What it is for' }),
  status: Status,
  reason: nullable(Type.String(), 'Why it was rejected; null otherwise'),
  created_at: described(Timestamp, 'When it was asked for'),
  reviewed_at: nullable(Timestamp, 'When the operator approved or rejected it; null while requested'),
}, { description: 'A Sender ID request' });

export const SenderIdRequestList = Type.Object({
  requests: Type.Array(SenderIdRequest, { description: 'The account\'s requests, newest first' }),
}, { description: 'The account\'s Sender ID requests' });

export const OperatorSenderIdRequest = Type.Object({
  ...SenderIdRequest.properties,
  account_id: described(Uuid, 'The account that asked'),
  business_name: Type.String({ description: 'That account\'s business name' }),
  registration_id: nullable(Uuid, 'The registration an approval made (GET /admin/sender-ids); null otherwise'),
}, { description: 'A Sender ID request, as the operator reviews it' });

export const ReviewQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('requested'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('all')], {
    description: 'requested (the default: waiting for review), approved, rejected or all',
  })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' }),
  offset: Offset,
});

export const RejectBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why, as the account will read it' }),
}, { description: 'The rejection' });

export const REQUEST_EXAMPLE = {
  id: REQUEST_ID, sender_id: 'HarbourDnt', abn: '51824753556', use_description: 'Appointment reminders to our patients',
  status: 'requested', reason: null, created_at: '2026-11-20T03:15:42.118Z', reviewed_at: null,
};
export const OPERATOR_REQUEST_EXAMPLE = {
  ...REQUEST_EXAMPLE, account_id: EX.account, business_name: 'Harbour Dental Group', registration_id: null,
};
