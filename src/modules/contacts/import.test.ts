import { describe, expect, it } from 'vitest';
import { readImport } from './import.ts';

describe('readImport', () => {
  it('reads named columns, custom fields, local numbers in the account\'s country, and reports bad rows', () => {
    const csv = 'Mobile,First Name,Surname,clinic,email\n0412 345 678,Ana,Silva,Manly,ana@x.test\n02 9999 1234,Landline,,,\n"0412 345 679","Ben, Jr",,,\n0412345678,Ana2,,Bondi,\n';
    const { contacts, invalid } = readImport(csv, 'AU', 10);
    expect(contacts).toEqual([
      { phone: '+61412345678', firstName: 'Ana2', lastName: null, email: null, fields: { clinic: 'Bondi' } },
      { phone: '+61412345679', firstName: 'Ben, Jr', lastName: null, email: null, fields: {} },
    ]);
    expect(invalid).toEqual([{ row: 3, phone: '02 9999 1234', reason: expect.stringContaining('landline') }]);
  });

  it('follows a column mapping, skipping columns mapped to ""', () => {
    const { contacts } = readImport('Cell,Given,Notes\n021 234 5678,Aroha,skip me\n', 'NZ', 10, { Cell: 'phone', Given: 'first_name', Notes: '' });
    expect(contacts).toEqual([{ phone: '+64212345678', firstName: 'Aroha', lastName: null, email: null, fields: {} }]);
  });

  it('refuses a file without a phone column or with too many rows', () => {
    expect(() => readImport('name\nAna\n', 'AU', 10)).toThrow(/phone column/);
    expect(() => readImport('phone\n0412345678\n0412345679\n', 'AU', 1)).toThrow(/the most is 1/);
  });
});
