import { describe, expect, it } from 'vitest';
import { counted, pageLine } from './format.ts';

describe('list footers', () => {
  it('say one row in the singular and the rest in the plural', () => {
    expect(counted(1, 'operators')).toBe('1 operator');
    expect(counted(0, 'Sender IDs')).toBe('0 Sender IDs');
    expect(counted(2, 'requests')).toBe('2 requests');
  });

  it('name the rows shown, the total, and the next page while one remains', () => {
    expect(pageLine({ shown: 1, total: 1, offset: 0, limit: 25 }, 'requests')).toBe('1–1 of 1 request.');
    expect(pageLine({ shown: 25, total: 30, offset: 0, limit: 25 }, 'accounts')).toBe('1–25 of 30 accounts. Next page: --offset 25 --limit 25');
    expect(pageLine({ shown: 0, total: 0, offset: 0, limit: 25 }, 'keys')).toBe('No keys.');
    expect(pageLine({ shown: 0, total: 1, offset: 5, limit: 25 }, 'keys')).toBe('None here: 1 key in all (--offset below 1).');
  });
});
