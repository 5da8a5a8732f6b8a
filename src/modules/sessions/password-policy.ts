// What a dashboard password must be: long enough to resist guessing (12 characters, as NIST 800-63B suggests for
// memorised secrets without composition rules) and not one of the passwords attackers try first.

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

// The most common leaked passwords of 12 characters or more (shorter ones fail the length rule anyway), plus the
// obvious service-specific ones. Compared case-insensitively.
const COMMON = new Set([
  '123456789012', '1234567890123', '12345678901234', '123456789123', '111111111111', '000000000000',
  '123123123123', 'qwertyuiopas', 'qwertyuiop123', '1q2w3e4r5t6y', '1qaz2wsx3edc', 'qwerty123456', 'password1234',
  'password12345', 'password123456', 'passwordpassword', 'iloveyou1234', 'abcdefghijkl', 'abc123abc123',
  'aaaaaaaaaaaa', 'letmein12345', 'welcome12345', 'welcome123456', 'administrator', 'admin1234567', 'changeme1234',
  'trustno1trustno1', 'football1234', 'baseball1234', 'monkey123456', 'dragon123456', 'sunshine1234', 'princess1234',
  'superman1234', 'starwars1234', 'whatever1234', 'qazwsxedcrfv', 'zaq12wsxcde3', '1234qwerasdf', 'asdfghjkl123',
  'correcthorsebatterystaple', 'p@ssw0rd1234', 'passw0rd1234', 'tasmantasman', 'tasman123456', 'smsmessaging',
  'mypassword123', 'mypassword1234', 'secretpassword', 'qwerty12345678', 'password!234', 'password@123',
]);

export type PasswordProblem = 'too_short' | 'too_long' | 'too_common' | 'contains_email';

/** The first problem with a proposed password, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return 'too_short';
  if (length > MAX_PASSWORD_LENGTH) return 'too_long';
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || /^(.)\1+$/.test(password)) return 'too_common';
  const local = email.toLowerCase().split('@')[0] ?? '';
  if (local.length >= 4 && lower.includes(local)) return 'contains_email';
  return null;
}

export const passwordMessages: Record<PasswordProblem, string> = {
  too_short: `Use at least ${MIN_PASSWORD_LENGTH} characters`,
  too_long: `Use at most ${MAX_PASSWORD_LENGTH} characters`,
  too_common: 'That password is too common; choose another',
  contains_email: 'Do not use your email address in your password',
};
