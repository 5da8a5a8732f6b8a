import { describe, expect, it } from 'vitest';
import { isHostList, parseHostList, splitHosts, withHosts } from './hosts.ts';

describe('database host lists', () => {
  it('splits a URL with several hosts into one URL per host, keeping user, password, database and parameters', () => {
    expect(splitHosts('postgres://tasman:s3cret@db1:5432,db2:5433/tasman?sslmode=require')).toEqual([
      'postgres://tasman:s3cret@db1:5432/tasman?sslmode=require',
      'postgres://tasman:s3cret@db2:5433/tasman?sslmode=require',
    ]);
    expect(splitHosts('postgresql://u@10.0.0.1,10.0.0.2:6432/db')).toEqual(['postgresql://u@10.0.0.1:5432/db', 'postgresql://u@10.0.0.2:6432/db']);
    expect(splitHosts('postgres://h1:5432,[::1]:5433/db')).toEqual(['postgres://h1:5432/db', 'postgres://[::1]:5433/db']);
    expect(isHostList('postgres://u@a,b/db')).toBe(true);
  });

  it('leaves a URL with one host as it is (a Unix socket in ?host= included)', () => {
    for (const url of ['postgres://u:p@db:5432/tasman', 'postgresql://postgres:pw@localhost/tasman?host=%2Ftmp%2Fsock', 'postgres:///tasman']) {
      expect(splitHosts(url)).toEqual([url]);
      expect(isHostList(url)).toBe(false);
    }
  });

  it('replaces the host of DATABASE_URL with DATABASE_HOSTS', () => {
    expect(withHosts('postgres://u:p@ignored:1/tasman?application_name=x', 'h1:5432, h2:5433')).toBe('postgres://u:p@h1:5432,h2:5433/tasman?application_name=x');
    expect(withHosts('postgres://u@a:1,b:2/db', '127.0.0.1')).toBe('postgres://u@127.0.0.1:5432/db');
  });

  it('refuses entries that are not host or host:port, naming the entry', () => {
    expect(parseHostList('a:1,b')).toEqual([{ host: 'a', port: 1 }, { host: 'b', port: 5432 }]);
    expect(() => parseHostList('a:1,')).toThrow('"" is not host or host:port');
    expect(() => parseHostList('a:99999')).toThrow('"a:99999" is not host or host:port');
    expect(() => parseHostList('a:x')).toThrow('"a:x" is not host or host:port');
    expect(() => splitHosts('postgres://u@a,b c/db')).toThrow('"b c" is not host or host:port');
  });
});
