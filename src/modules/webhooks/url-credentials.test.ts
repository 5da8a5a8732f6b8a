import { describe, expect, it } from 'vitest';
import { joinCredentials, maskCredentials, splitCredentials } from './url-credentials.ts';

describe('webhook URL credentials', () => {
  it('splits them out, puts them back exactly, and masks them', () => {
    const given = 'https://hook%40user:p%3Ass@hooks.example.com:8443/in?x=1';
    const { url, credentials } = splitCredentials(given);
    expect(url).toBe('https://hooks.example.com:8443/in?x=1');
    expect(credentials).toBe('hook%40user:p%3Ass');
    expect(joinCredentials(url, credentials)).toBe(given);
    expect(maskCredentials(url, true)).toBe('https://****:****@hooks.example.com:8443/in?x=1');
  });

  it('leaves a URL without credentials alone', () => {
    expect(splitCredentials('https://example.com/h')).toEqual({ url: 'https://example.com/h', credentials: null });
    expect(joinCredentials('https://example.com/h', null)).toBe('https://example.com/h');
    expect(maskCredentials('https://example.com/h', false)).toBe('https://example.com/h');
  });
});
