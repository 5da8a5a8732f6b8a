import { AppError } from '../../platform/errors.ts';

/** The 402 every debit answers when the balance is short, with the two amounts docs/api-contract.md promises. */
export function insufficientCredits(required: number, available: number): AppError {
  return new AppError('insufficient_credits', `This needs ${required} credits and the account has ${available}`, {
    credits_required: required, credits_available: available,
  });
}
