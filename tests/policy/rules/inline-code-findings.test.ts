// The string scan of program text: paths, URLs, network modules, deleting calls, the environment,
// and shell commands handed to system().
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

const python = (code: string) => shellClass(`python -c ${JSON.stringify(code)}`);

describe('inline code scan', () => {
  it('a named path is protected only when it steers yoke or an agent, or crosses the boundary with a /', () => {
    expect(python("open('x','w').write('hi')").class).toBe('exec');
    expect(python("open('tests/fixtures/a.json','w')").class).toBe('protected');
    expect(python("open('/etc/hosts').read()").class).toBe('protected');
    expect(python("import sys; sys.path.insert(0, '/usr/lib/python3')").class).toBe('exec');
  });
  it('secrets, URLs and the environment', () => {
    expect(python("open('/home/u/.aws/credentials')").class).toBe('secret');
    expect(python("print(os.environ.get('GITHUB_TOKEN'))").class).toBe('secret');
    expect(python("print(os.getenv('HOME'))").class).toBe('exec');
    expect(shellClass('node -e "console.log(process.env.GITHUB_TOKEN)"').class).toBe('secret');
    expect(shellClass('node -e "console.log(process.env.HOME)"').class).toBe('exec');
    expect(python("requests.get('http://127.0.0.1')").class).toBe('network');
  });
  it('shell commands inside system() and friends are classified as shell', () => {
    expect(python("import subprocess; subprocess.run('git push --force', shell=True)").class).toBe('destructive');
    expect(shellClass('ruby -e "`curl http://x`"').class).toBe('network');
  });
});
