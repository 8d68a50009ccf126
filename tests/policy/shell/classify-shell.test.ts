// The walker: statements in order, with the cwd and variables the script sets; subshells, pipeline
// stages and substitutions do not leak them; nested scripts are followed to a depth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('classifyShell', () => {
  it('follows cd through && and ;, but not out of a subshell or a pipeline stage', () => {
    expect(shellClass('cd .git && echo x > config').paths).toEqual(['.git/config']);
    expect(shellClass('cd src; cd ..; echo x > a').paths).toEqual(['a']);
    expect(shellClass('(cd .git) && echo x > config').paths).toEqual(['config']);
    expect(shellClass('cd .git | true; echo x > config').paths).toEqual(['config']);
    expect(shellClass('cd ~ && echo x > .bashrc').paths).toEqual(['/home/u/.bashrc']);
  });

  it('loses the cwd when it is known only at run time', () => {
    expect(shellClass('cd "$D" && echo x > a').class).toBe('protected');
    expect(shellClass('cd - && cat .env').class).toBe('secret');
    expect(shellClass('pushd /tmp && popd && echo x > a').class).toBe('protected');
  });

  it('follows variables the script assigns, and nothing else', () => {
    expect(shellClass('F=.claude/settings.json; echo {} > $F').paths).toEqual(['.claude/settings.json']);
    expect(shellClass('F=src/a; F=$(mktemp); echo x > "$F"').class).toBe('protected');
    expect(shellClass('echo x > $HOME/.profile').paths).toEqual(['/home/u/.profile']);
    expect(shellClass('echo x > "$PWD/a"').paths).toEqual(['a']);
  });

  it('classifies a run-time command name as exec', () => {
    expect(shellClass('$EDITOR file').class).toBe('exec');
  });

  it('sees commands inside substitutions, conditions, loops, functions and case', () => {
    expect(shellClass('if [ -f x ]; then rm -rf keep; fi').class).toBe('destructive');
    expect(shellClass('while true; do curl x; done').class).toBe('network');
    expect(shellClass('f() { cat .env; }; f').class).toBe('secret');
    expect(shellClass('case $x in a) git reset --hard;; esac').class).toBe('destructive');
    expect(shellClass('[[ $(cat .env) ]]').class).toBe('secret');
    expect(shellClass('diff <(cat .env) a').class).toBe('secret');
    expect(shellClass('echo `rm -rf keep`').class).toBe('destructive');
  });

  it('a here-document is data, except for a shell or interpreter reading it', () => {
    expect(shellClass('cat <<EOF\nrm -rf keep\nEOF').class).toBe('read');
    expect(shellClass('sh <<EOF\nrm -rf keep\nEOF').class).toBe('destructive');
    expect(shellClass("bash <<< 'rm -rf keep'").class).toBe('destructive');
    expect(shellClass('cat <<EOF\n$(rm -rf keep)\nEOF').class).toBe('destructive');
    expect(shellClass("cat <<'EOF'\n$(rm -rf keep)\nEOF").class).toBe('read');
  });

  it('redirections: writes, empties, reads, duplications and network devices', () => {
    expect(shellClass('ls 2>&1 >&2').class).toBe('read');
    expect(shellClass('make &> build.log').paths).toEqual(['build.log']);
    expect(shellClass('echo x >| a').class).toBe('edit');
    expect(shellClass('echo -n > a').class).toBe('destructive');
    expect(shellClass('exec 3<> /dev/tcp/127.0.0.1/80').class).toBe('network');
    expect(shellClass('cmd >& out.txt').paths).toEqual(['out.txt']);
  });

  it('stops following nested shells at a depth, as exec', () => {
    let script = 'rm -rf keep';
    for (let i = 0; i < 8; i += 1) script = `sh -c ${JSON.stringify(script)}`;
    expect(shellClass(script).reasons.join(' ')).toContain('nests shells');
  });

  it('a nested script that does not parse is exec, naming who runs it', () => {
    expect(shellClass("bash -c 'if then'").reasons.join(' ')).toContain('`bash -c` runs a script yoke could not parse');
  });
});

describe('classifyShell: properties', () => {
  const token = fc.constantFrom('rm', '-rf', 'keep', '&&', '||', ';', '|', '>', '>>', '<', '"', "'", '$(', ')', '`', 'cd', 'x', '*', '$X', '{a,b}', '\\', '#', '\n', 'echo', 'sh', '-c', '<<EOF', 'EOF', '(', '2>&1');
  const script = fc.array(token, { maxLength: 14 }).map((tokens) => tokens.join(' '));

  it('never throws and always gives the same answer for the same text', () => {
    fc.assert(fc.property(script, (source) => {
      expect(shellClass(source)).toEqual(shellClass(source));
    }), { numRuns: 400 });
  });

  it('rm -rf keep stays destructive behind any stack of wrappers, shells and separators', () => {
    const wrapper = fc.constantFrom('sudo', 'env A=1', 'nice -n 5', 'time', 'command', 'nohup', 'timeout 5', 'xargs', 'stdbuf -o L');
    const around = fc.constantFrom((c: string) => c, (c: string) => `true && ${c}`, (c: string) => `false || ${c}`, (c: string) => `( ${c} )`, (c: string) => `{ ${c}; }`,
      (c: string) => `sh -c '${c.replace(/'/g, "'\\''")}'`, (c: string) => `echo $( ${c} )`, (c: string) => `if true; then ${c}; fi`, (c: string) => `ls | ${c}`);
    fc.assert(fc.property(fc.array(wrapper, { maxLength: 3 }), fc.array(around, { maxLength: 3 }), (wrappers, arounds) => {
      const command = arounds.reduce((inner, wrap) => wrap(inner), [...wrappers, 'rm -rf keep'].join(' '));
      expect(shellClass(command).class, command).toBe('destructive');
    }), { numRuns: 300 });
  });
});
