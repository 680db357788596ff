/**
 * The identity of a service whatever the spelling of its base URL (src/config/target.ts
 * `serviceIdentity`), and the target ids built from it: what decides which ledger a run books on.
 */
import { describe, expect, it } from 'vitest';
import { serviceIdentity, splitTargetId, targetId } from '../../src/config/target.js';

describe('the identity of a service', () => {
  it('is one for every everyday spelling of a loopback URL: host case, trailing slashes, localhost, 127.0.0.1 and [::1]', () => {
    const spellings = ['http://127.0.0.1:24580/', 'http://localhost:24580', 'http://LOCALHOST:24580/', 'http://[::1]:24580', 'HTTP://Localhost:24580//'];
    expect(new Set(spellings.map(serviceIdentity))).toEqual(new Set(['http://localhost:24580/']));
  });

  it('drops the default port and lower-cases scheme and host, and keeps the path', () => {
    expect(serviceIdentity('HTTPS://API.Example.com:443/v1')).toBe('https://api.example.com/v1/');
    expect(serviceIdentity('https://api.example.com/v1/')).toBe('https://api.example.com/v1/');
  });

  it('keeps apart what is another service: another port, another host, another path', () => {
    const ids = ['http://localhost:1/', 'http://localhost:2/', 'https://a.example.com/', 'https://b.example.com/', 'https://a.example.com/v2/'].map(
      serviceIdentity,
    );
    expect(new Set(ids).size).toBe(5);
  });

  it('names a target by service and account, never the key; the account given wins over the key', () => {
    const id = targetId({ baseUrl: 'http://127.0.0.1:9/', apiKey: 'secret-key-text' }, '/state');
    expect(id).not.toContain('secret-key-text');
    expect(splitTargetId(id)?.service).toBe('http://localhost:9/');
    expect(targetId({ baseUrl: 'http://[::1]:9', apiKey: 'another-key' }, '/state', 'abcdefabcdef')).toBe('http://localhost:9/#key:abcdefabcdef');
    expect(targetId({}, '/state')).toBe('builtin-sandbox:/state');
  });
});
