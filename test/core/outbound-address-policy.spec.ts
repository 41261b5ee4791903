import { describe, expect, it } from 'vitest';
import { addressRefusal } from '../../src/core/outbound/address-policy.js';

const open = { allow_loopback: true, allow_private_networks: true };
const strict = { allow_loopback: false, allow_private_networks: false };
const defaults = { allow_loopback: false, allow_private_networks: true };

describe('outbound address policy', () => {
  it.each([
    '169.254.169.254',
    '169.254.0.1',
    '169.254.255.255',
    'fd00:ec2::254',
    '::ffff:169.254.169.254',
    'fe80::1',
    '100.100.100.200',
  ])('%s is always refused (cloud metadata / link-local)', (ip) => {
    expect(addressRefusal(ip, open)).toMatch(/metadata/);
  });

  it.each(['127.0.0.1', '127.255.0.9', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1'])('%s is loopback', (ip) => {
    expect(addressRefusal(ip, defaults)).toMatch(/loopback/);
    expect(addressRefusal(ip, open)).toBeUndefined();
  });

  it.each([
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    'fc00::1',
    'fd12:3456::1',
    '100.64.0.1',
    '::ffff:10.1.1.1',
  ])('%s is private: allowed by default, refused when private networks are disallowed', (ip) => {
    expect(addressRefusal(ip, defaults)).toBeUndefined();
    expect(addressRefusal(ip, strict)).toMatch(/private network/);
  });

  it.each(['8.8.8.8', '172.15.255.255', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '100.128.0.1'])(
    '%s is public',
    (ip) => {
      expect(addressRefusal(ip, strict)).toBeUndefined();
    },
  );
});
