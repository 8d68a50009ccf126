// Secret paths: env files, keys, credential stores; templates and public keys are not secrets.
import { describe, expect, it } from 'vitest';
import { secretGlobReason, secretReason } from '../../../policy/paths/secret-path.js';

describe('secretReason', () => {
  it.each([
    '.env', 'app/.env.production', '/home/u/.ssh/config', '/home/u/.ssh', '/home/u/.aws/credentials', 'id_rsa', 'keys/id_ed25519',
    'server.pem', 'tls.key', '/root/.netrc', '.npmrc', '.git-credentials', '/home/u/.claude/.credentials.json', '/home/u/.codex/auth.json',
    '/home/u/.gemini/oauth_creds.json', '/proc/1/environ', '/etc/shadow', '/home/u/.config/gcloud/adc.json', '.envrc',
    '.loop/.journal/gate.json', '/p/.loop/.journal/gate.json',
  ])('%s is a secret', (path) => {
    expect(secretReason(path)).not.toBeNull();
  });
  it.each(['.env.example', '.env.sample', 'id_rsa.pub', '/home/u/.ssh/id_ed25519.pub', 'src/env.ts', 'README.md', 'keyboard.c', '.loop/.journal/journal.jsonl', 'docs/gate.json'])('%s is not', (path) => {
    expect(secretReason(path)).toBeNull();
  });
  it('asks whether a glob could match a secret', () => {
    expect(secretGlobReason('.e*')).toContain('.env');
    expect(secretGlobReason('/home/u/.ssh/*')).toContain('credential store');
    expect(secretGlobReason('*.ts')).toBeNull();
    expect(secretGlobReason('*')).toBeNull();
  });
});
