import type { Mail } from './mailer.ts';

// The words of the mail Tasman sends, in one place. Plain text: every client shows it, and links stay whole.

export const inviteMail = (to: string, businessName: string, link: string, accountId: string): Mail => ({
  kind: 'invite', to, link, accountId,
  subject: `You are invited to ${businessName} on Tasman`,
  text: `You have been invited to the Tasman dashboard of ${businessName}.\n\nChoose your password here (the link works once, for 7 days):\n${link}\n\nIf you did not expect this, ignore this email.\n`,
});

export const resetMail = (to: string, businessName: string, link: string, accountId: string): Mail => ({
  kind: 'password_reset', to, link, accountId,
  subject: 'Reset your Tasman password',
  text: `Someone asked to reset the password of ${to} for ${businessName} on Tasman.\n\nChoose a new password here (the link works once, for an hour):\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
});

export const lowBalanceMail = (to: string, businessName: string, credits: number, threshold: number, accountId: string): Mail => ({
  kind: 'low_balance', to, accountId,
  subject: `${businessName}: ${credits} Tasman credits left`,
  text: `${businessName} has ${credits} credits left, below the ${threshold} set in its settings. Sends stop when credits run out.\n\n`
    + `This email comes once each time the balance falls below ${threshold}; the next comes after it has been topped up to ${threshold} or more. `
    + 'Change or turn off the threshold in the dashboard\'s Settings.\n',
});
