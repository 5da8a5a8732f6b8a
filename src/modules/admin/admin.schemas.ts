import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { described, NonBlankName } from '../../platform/http/schemas.ts';
import { Country } from '../settings/settings.schemas.ts';

export const Abn = Type.String({ minLength: 11, maxLength: 14, description: 'Australian Business Number: 11 digits, spaces ignored. Set by the operator it is verified: Sender IDs registered to it become usable' });

export const CreateAccount = Type.Object({
  business_name: described(NonBlankName, 'The business\'s name'),
  email: Type.String({ format: 'email', maxLength: 320, description: 'The owner\'s email: their dashboard sign-in' }),
  abn: Type.Optional(Abn),
  credits: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Opening balance (default: the new-account grant)' })),
  hierarchy_enabled: Type.Optional(Type.Boolean({ description: 'It may have sub-accounts (default false)' })),
  country: Type.Optional(Country),
}, { description: 'The new account' });
export type CreateAccountInput = Static<typeof CreateAccount>;
