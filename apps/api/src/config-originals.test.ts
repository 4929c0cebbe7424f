import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseOriginalsUrl } from './config';

describe('ORIGINALS_URL', () => {
  it('reads bucket, prefix, endpoint, region and path style', () => {
    expect(
      parseOriginalsUrl(
        's3://portal-originals/fleet/a?endpoint=http://127.0.0.1:4569&region=eu-north-1&forcePathStyle=true',
        {},
      ),
    ).toEqual({
      bucket: 'portal-originals',
      prefix: 'fleet/a/',
      endpoint: 'http://127.0.0.1:4569',
      region: 'eu-north-1',
      forcePathStyle: true,
    });
    // AWS itself: the region from the usual variable, no endpoint, virtual-hosted style.
    expect(parseOriginalsUrl('s3://portal-originals', { AWS_REGION: 'eu-west-1' })).toEqual({
      bucket: 'portal-originals',
      prefix: '',
      region: 'eu-west-1',
      forcePathStyle: false,
    });
  });

  it.each([
    ['https://portal-originals', 'Use an s3:// address: s3://bucket?region=...'],
    ['portal-originals', 'Use s3://bucket?endpoint=...&region=... (not an address)'],
    [
      's3://PortalOriginals?region=x',
      "'PortalOriginals' is not a bucket name (3-63 lower-case letters, digits, dots, hyphens)",
    ],
    [
      's3://key:secret@portal-originals?region=x',
      'Put no credentials in ORIGINALS_URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or a profile or role)',
    ],
    ['s3://portal-originals', "Name the bucket's region: ?region=... or AWS_REGION"],
    [
      's3://portal-originals?region=x&endpoint=127.0.0.1:4569',
      "endpoint '127.0.0.1:4569' is not an http:// or https:// address",
    ],
    ['s3://portal-originals?region=x&forcePathStyle=yes', "forcePathStyle is true or false, not 'yes'"],
    [
      's3://portal-originals?region=x&acl=public',
      "Unknown setting 'acl' (use endpoint, region, forcePathStyle)",
    ],
  ])('%s is refused at start: %s', (value, message) => {
    expect(parseOriginalsUrl(value, {})).toEqual({ invalid: message });
    expect(() => loadConfig({ ORIGINALS_URL: value } as NodeJS.ProcessEnv, [])).toThrow(
      new ConfigError(`Invalid configuration:\n  ORIGINALS_URL: ${message}`),
    );
  });

  it('unset: no bucket, the database keeps the originals', () => {
    expect(loadConfig({} as NodeJS.ProcessEnv, []).originalsBucket).toBeNull();
  });
});
