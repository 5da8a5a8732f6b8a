import { Type } from '@fastify/type-provider-typebox';
import { NullableTimestamp, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const Country = Type.Union([Type.Literal('AU'), Type.Literal('NZ')]);

export const HeldNumber = Type.Object({
  id: Uuid, number: Type.String({ description: 'E.164' }), country: Type.String(), price_monthly: Type.Number(),
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
});
export const Purchased = Type.Object({ ok: Type.Boolean(), number: HeldNumber });

const NumbersField = Type.Union([
  Type.String({ maxLength: 40 }),
  Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 100 }),
], { description: 'one number or an array of up to 100' });
export const MoveRequest = Type.Object({ numbers: NumbersField });
export const Assigned = Type.Object({ ok: Type.Boolean(), assigned: Type.Array(Type.String()) });
export const Recalled = Type.Object({ ok: Type.Boolean(), recalled: Type.Array(Type.String()) });
