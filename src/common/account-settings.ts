import type { PhoneCountry } from './phone.ts';

// The shape of an account's settings, here because the actor (platform/) carries them; what they mean and how they
// are checked is modules/settings/account-settings.ts.

export interface QuietHours {
  /** local wall-clock `HH:MM` at which the window opens (inclusive) */
  start: string;
  /** local wall-clock `HH:MM` at which it closes (exclusive); before `start` means it spans midnight */
  end: string;
}

export interface AccountSettings {
  /** null: off (the default) */
  quietHours: QuietHours | null;
  /** IANA zone for Australian recipients (their numbers carry no state) */
  timeZone: string;
  /** the default for `link_tracking` on sends that do not give it */
  linkTracking: boolean;
  /** the country a local number (leading 0) is read in: `02 9999 1234` is a Sydney landline for AU, a mobile for NZ */
  country: PhoneCountry;
  /** credits: a debit that takes the balance from at-or-above it to below emails the owner once; null: off (the default) */
  lowBalanceThreshold: number | null;
  /** the owner requires every dashboard user to sign in with a second factor (decision 0082); API keys are not affected */
  twoFactorRequired: boolean;
}
