import { describe, expect, it } from 'vitest';
import { withoutCredentials } from '../../../store/fleet/repository-url.js';

describe('withoutCredentials', () => {
  it.each([
    ['https://user:TOKEN@git.example/team/shop.git', 'https://git.example/team/shop.git'],
    ['https://TOKEN@git.example/team/shop.git', 'https://git.example/team/shop.git'],
    ['http://x-access-token:ghp_abc@127.0.0.1:8080/shop.git', 'http://127.0.0.1:8080/shop.git'],
    ['ssh://git:secret@git.example:2222/team/shop.git', 'ssh://git@git.example:2222/team/shop.git'],
  ])('drops the credentials of %s', (given, kept) => {
    expect(withoutCredentials(given)).toEqual({ repository: kept, credentialsRemoved: true });
  });

  it.each([
    'https://git.example/team/shop.git',
    'ssh://git@git.example/team/shop.git',
    'git@git.example:team/shop.git',
    '/srv/git/shop.git',
    'file:///srv/git/shop.git',
    'https://git.example/team/sh%6Fp.git',
  ])('keeps %s as given', (given) => {
    expect(withoutCredentials(given)).toEqual({ repository: given, credentialsRemoved: false });
  });
});
