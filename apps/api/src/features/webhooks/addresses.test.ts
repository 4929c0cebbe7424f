import { describe, expect, it } from 'vitest';
import { addressRefusal, classifyAddress, DEFAULT_ADDRESS_POLICY, embeddedIpv4 } from './addresses';
import { parseNetwork, parseNetworkList } from '../../networks';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['not an address', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('finds the IPv4 address inside mapped and NAT64 IPv6 addresses', () => {
    expect(embeddedIpv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIpv4('64:ff9b::808:808')).toBe('8.8.8.8');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('::1')).toBeNull();
  });
});

describe('addressRefusal', () => {
  it('allows public addresses and refuses the others by default, saying why', () => {
    expect(addressRefusal('8.8.8.8', DEFAULT_ADDRESS_POLICY)).toBeNull();
    expect(addressRefusal('127.0.0.1', DEFAULT_ADDRESS_POLICY)).toBe(
      '127.0.0.1 is a loopback address: webhooks go only to public addresses unless the operator allows this network',
    );
    expect(addressRefusal('169.254.169.254', DEFAULT_ADDRESS_POLICY)).toMatch(
      /^169.254.169.254 is the cloud metadata address/,
    );
    expect(addressRefusal('127.0.0.1', DEFAULT_ADDRESS_POLICY, 'localhost')).toBe(
      'localhost resolves to 127.0.0.1, a loopback address: webhooks go only to public addresses unless the operator allows this network',
    );
    for (const address of ['10.0.0.1', '192.168.0.1', '172.20.0.1', 'fd00::1', 'fe80::1', '::1'])
      expect(addressRefusal(address, DEFAULT_ADDRESS_POLICY), address).not.toBeNull();
  });

  it('allows private networks when the operator says so, never the metadata address', () => {
    const policy = { allowPrivateNetworks: true, allowedNetworks: [] };
    for (const address of ['127.0.0.1', '10.0.0.1', '192.168.0.1', 'fd00::1', '::1', '169.254.1.1'])
      expect(addressRefusal(address, policy), address).toBeNull();
    expect(addressRefusal('169.254.169.254', policy)).not.toBeNull();
    expect(addressRefusal('0.0.0.0', policy)).toMatch(/a webhook cannot go there/);
    expect(addressRefusal('224.0.0.1', policy)).not.toBeNull();
  });

  it('allows exactly the listed networks', () => {
    const policy = { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.0/8', '10.20.0.0/16'] };
    expect(addressRefusal('127.0.0.1', policy)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', policy)).toBeNull();
    expect(addressRefusal('10.20.3.4', policy)).toBeNull();
    expect(addressRefusal('10.21.0.1', policy)).not.toBeNull();
    expect(addressRefusal('192.168.0.1', policy)).not.toBeNull();
    expect(addressRefusal('169.254.169.254', policy)).not.toBeNull();
    expect(
      addressRefusal('169.254.169.254', {
        allowPrivateNetworks: false,
        allowedNetworks: ['169.254.169.254'],
      }),
    ).toBeNull();
    expect(
      addressRefusal('0.0.0.0', { allowPrivateNetworks: false, allowedNetworks: ['0.0.0.0/0'] }),
    ).not.toBeNull();
  });
});

describe('network lists', () => {
  it('reads CIDR networks and bare addresses', () => {
    expect(parseNetwork('10.0.0.0/8')).toEqual({ network: '10.0.0.0', prefix: 8, family: 4 });
    expect(parseNetwork('::1')).toEqual({ network: '::1', prefix: 128, family: 6 });
    expect(parseNetwork('10.0.0.0/33')).toBeNull();
    expect(parseNetwork('example.com/8')).toBeNull();
    expect(parseNetwork('10.0.0.0/8/1')).toBeNull();
    expect(parseNetworkList(' 127.0.0.0/8, fd00::/8 ,')).toEqual({ networks: ['127.0.0.0/8', 'fd00::/8'] });
    expect(parseNetworkList(undefined)).toEqual({ networks: [] });
    expect(parseNetworkList('127.0.0.0/8,localhost')).toEqual({ invalid: 'localhost' });
  });
});
