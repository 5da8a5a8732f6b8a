import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const Country = Type.Union([Type.Literal('AU'), Type.Literal('NZ')], { description: 'AU or NZ' });
const NumberId = described(Uuid, 'The number\'s id');
const E164 = Type.String({ description: 'The number, E.164' });
const CountryOut = Type.String({ description: 'AU or NZ' });
const PriceMonthly = Type.Number({ description: 'Rental per 30 days, in Australian dollars' });

const Label = Type.Union([Type.String(), Type.Null()], { description: 'the holder\'s own name for the number (set on purchase)' });

export const HeldNumber = Type.Object({
  id: NumberId, number: E164, country: CountryOut, price_monthly: PriceMonthly,
  label: Label,
  assigned_to: Type.Union([Uuid, Type.Null()], { description: 'the account holding the number' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('past_due')], { description: 'past_due during the 7-day grace after a renewal could not be paid' }),
  paid_until: Type.Union([Timestamp, Type.Null()], { description: 'end of the paid 30-day period; null for numbers the operator assigned' }),
  assigned_at: nullable(Timestamp, 'When its holder got it'), created_at: described(Timestamp, 'When the operator added it to the service'),
}, { description: 'A dedicated number an account holds' });
export const NumberList = Type.Object({ numbers: Type.Array(HeldNumber, { description: 'The numbers, in number order' }) }, { description: 'The numbers' });
export const GroupNumberList = Type.Object({
  numbers: Type.Array(Type.Object({
    ...HeldNumber.properties,
    account_id: described(Uuid, 'The account holding it: the caller or one of its sub-accounts'),
    business_name: Type.String({ description: 'That account\'s business name' }),
  }), { description: 'The numbers of the caller and its open sub-accounts' }),
}, { description: 'The group\'s numbers' });

export const AvailableQuery = Type.Object({
  country: Type.Optional(described(Country, 'Only numbers of this country (AU or NZ); default both')),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20)' }),
  offset: Offset,
});
export const AvailableList = Type.Object({
  numbers: Type.Array(Type.Object({ id: NumberId, number: E164, country: CountryOut, price_monthly: PriceMonthly }), { description: 'Free pool numbers, in number order' }),
  limit: Type.Integer({ description: 'The page size used' }),
  offset: Type.Integer({ description: 'The offset used' }),
}, { description: 'A page of the pool' });

export const PurchaseRequest = Type.Object({
  number: Type.Optional(Type.String({ maxLength: 40, description: 'a pool number; omit for the first free one' })),
  country: Type.Optional(described(Country, 'The country to lease in (AU or NZ); with number, it must match')),
  label: Type.Optional(Type.String({ maxLength: 100, description: 'your own name for the number, returned on every listing' })),
}, { description: 'Which number to lease; every field optional' });
export const Purchased = Type.Object({
  ok: Type.Boolean({ description: 'true: the number is the caller\'s' }),
  number: Type.String({ description: 'E.164' }),
  number_id: NumberId,
  label: Label,
  status: Type.Literal('active', { description: 'active' }),
  billing_reference: Type.Union([Type.String(), Type.Null()], { description: 'always null: rental is charged in credits' }),
  country: CountryOut,
  price_monthly: PriceMonthly,
  credits_charged: Type.Integer({ description: 'the first 30 days: price_monthly at CREDIT_PRICE_CENTS per credit, rounded up' }),
  credits_remaining: Type.Integer({ description: 'The caller\'s balance after the charge' }),
  paid_until: nullable(Timestamp, 'End of the paid period; renewed from the balance every 30 days after'),
}, { description: 'The number is leased' });

const NumbersField = Type.Union([
  Type.String({ maxLength: 40 }),
  Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 100 }),
], { description: 'one number or an array of up to 100' });
export const MoveRequest = Type.Object({ numbers: NumbersField });
export const Assigned = Type.Object({
  ok: Type.Boolean({ description: 'true: every number moved' }),
  assigned: Type.Array(Type.String(), { description: 'The numbers the sub-account now holds from this call, E.164' }),
}, { description: 'The numbers moved' });
export const Recalled = Type.Object({
  ok: Type.Boolean({ description: 'true: every number moved' }),
  recalled: Type.Array(Type.String(), { description: 'The numbers back with the parent, E.164' }),
}, { description: 'The numbers moved' });

export const HELD_NUMBER_EXAMPLE = {
  id: EX.number, number: '+61480000123', country: 'AU', price_monthly: 9.9, label: 'Reception', assigned_to: EX.account, status: 'active',
  paid_until: '2026-12-27T22:04:10.512Z', assigned_at: EX.sent, created_at: EX.created,
};
