import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { parseLsn } from './read-routing';

describe('reads off the primary: settings and WAL locations', () => {
  it('orders WAL locations as PostgreSQL writes them, across the high word', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('16-B374D848')).toThrow('not a WAL location');
  });

  it('takes DATABASE_READ_URL only beside DATABASE_URL, and only a postgres:// address', () => {
    const primary = 'postgres://portal@db:5432/portal';
    const replica = 'postgres://portal@replica:5432/portal';
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: replica }, []).DATABASE_READ_URL).toBe(
      replica,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: replica }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_READ_URL: replica }, [])).toThrow(
      'DATABASE_READ_URL is a replica of DATABASE_URL: set DATABASE_URL too',
    );
    expect(() =>
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'mysql://replica/portal' }, []),
    ).toThrow('DATABASE_READ_URL: Use a postgres:// or postgresql:// address');
  });
});
