import { Type } from '@fastify/type-provider-typebox';
import { NullableTimestamp, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const Country = Type.Union([Type.Literal('AU'), Type.Literal('NZ')]);

const Label = Type.Union([Type.String(), Type.Null()], { description: 'the holder\'s own name for the number (set on purchase)' });

export const HeldNumber = Type.Object({
  id: Uuid, number: Type.String({ description: 'E.164' }), country: Type.String(), price_monthly: Type.Number(),
  label: Label,
  assigned_to: Type.Union([Uuid, Type.Null()], { description: 'the account holding the number' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('past_due')], { description: 'past_due during the 7-day grace after a renewal could not be paid' }),
  paid_until: Type.Union([Timestamp, Type.Null()], { description: 'end of the paid 30-day period; null for numbers the operator assigned' }),
  assigned_at: NullableTimestamp, created_at: Timestamp,
});
export const NumberList = Type.Object({ numbers: Type.Array(HeldNumber) });
export const GroupNumberList = Type.Object({
  numbers: Type.Array(Type.Object({ ...HeldNumber.properties, account_id: Uuid, business_name: Type.String() })),
});

export const AvailableQuery = Type.Object({
  country: Type.Optional(Country),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Offset,
});
export const AvailableList = Type.Object({
  numbers: Type.Array(Type.Object({ id: Uuid, number: Type.String(), country: Type.String(), price_monthly: Type.Number() })),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const PurchaseRequest = Type.Object({
  number: Type.Optional(Type.String({ maxLength: 40, description: 'a pool number; omit for the first free one' })),
  country: Type.Optional(Country),
  label: Type.Optional(Type.String({ maxLength: 100, description: 'your own name for the number, returned on every listing' })),
});
export const Purchased = Type.Object({
  ok: Type.Boolean(),
  number: Type.String({ description: 'E.164' }),
  number_id: Uuid,
  label: Label,
  status: Type.Literal('active'),
  billing_reference: Type.Union([Type.String(), Type.Null()], { description: 'always null: rental is charged in credits' }),
  country: Type.String(),
  price_monthly: Type.Number(),
  credits_charged: Type.Integer({ description: 'the first 30 days: price_monthly at CREDIT_PRICE_CENTS per credit, rounded up' }),
  credits_remaining: Type.Integer(),
  paid_until: Type.Union([Timestamp, Type.Null()]),
});

const NumbersField = Type.Union([
  Type.String({ maxLength: 40 }),
  Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 100 }),
], { description: 'one number or an array of up to 100' });
export const MoveRequest = Type.Object({ numbers: NumbersField });
export const Assigned = Type.Object({ ok: Type.Boolean(), assigned: Type.Array(Type.String()) });
export const Recalled = Type.Object({ ok: Type.Boolean(), recalled: Type.Array(Type.String()) });
