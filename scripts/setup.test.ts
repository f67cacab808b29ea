// scripts/setup.sh and start.sh in a scratch copy of the repository, as a non-root user would run
// them: apt-get, sudo, dpkg-query, npm, npx and node are stand-ins on PATH that record their calls (and
// refuse), and `id -u` says 1000, so any step needing root shows up in the record.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'ks-setup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function repoCopy(name: string): { dir: string; calls: () => string[]; run: (script: string, env: Record<string, string>) => { status: number | null; stderr: string } } {
  const dir = join(scratch, name);
  const shims = join(dir, '.shims');
  const log = join(dir, 'calls.log');
  for (const d of ['scripts', 'test/cluster', 'node_modules', '.shims']) mkdirSync(join(dir, d), { recursive: true });
  for (const f of ['scripts/setup.sh', 'scripts/start.sh', 'test/cluster/build-control-plane.sh']) copyFileSync(join(ROOT, f), join(dir, f));
  // npm packages up to date: the lockfile is older than the install.
  writeFileSync(join(dir, 'package-lock.json'), '{}');
  writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{}');
  utimesSync(join(dir, 'package-lock.json'), new Date(0), new Date(0));
  const shim = (cmd: string, body: string) => {
    writeFileSync(join(shims, cmd), `#!/bin/sh\necho "${cmd} $*" >> "${log}"\n${body}\n`);
    chmodSync(join(shims, cmd), 0o755);
  };
  for (const cmd of ['apt-get', 'sudo', 'dpkg-query', 'npm']) shim(cmd, 'exit 1');
  for (const cmd of ['npx', 'node']) shim(cmd, 'exit 0');
  writeFileSync(join(shims, 'id'), '#!/bin/sh\necho 1000\n');
  chmodSync(join(shims, 'id'), 0o755);
  return {
    dir,
    calls: () => { try { return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean); } catch { return []; } },
    run: (script, env) => {
      const r = spawnSync('bash', [join(dir, script)], {
        env: { PATH: `${shims}:${process.env.PATH}`, HOME: dir, KS_CACHE: join(dir, 'empty-cache'), ...env },
        encoding: 'utf8',
      });
      return { status: r.status, stderr: r.stderr };
    },
  };
}

describe('setup for npm start with $KUBECONFIG', () => {
  it('builds no control plane and runs nothing that needs root', () => {
    const repo = repoCopy('own-cluster');
    const r = repo.run('scripts/start.sh', { KUBECONFIG: '/somewhere/kubeconfig' });
    expect(r.stderr).toContain('[setup] $KUBECONFIG is set: using that cluster, no local control plane to build');
    expect(r.status).toBe(0);
    expect(repo.calls()).toEqual(['node --import tsx scripts/start.ts']);
  });

  it('npm test (and npm start without $KUBECONFIG) still builds the control plane, installing its packages', () => {
    for (const [script, env] of [['scripts/setup.sh', { KUBECONFIG: '/somewhere/kubeconfig' }], ['scripts/start.sh', {}]] as const) {
      const repo = repoCopy(`local-${script.replace(/\W/g, '-')}-${Object.keys(env).length}`);
      const r = repo.run(script, env);
      expect(r.status).not.toBe(0);
      expect(repo.calls().some((c) => c.startsWith('sudo ') || c.startsWith('apt-get '))).toBe(true);
      expect(repo.calls()).not.toContain('node --import tsx scripts/start.ts');
    }
  });

  it('says what to install when openssl is missing, instead of asking for root', () => {
    const repo = repoCopy('no-openssl');
    // A PATH with bash and coreutils but no openssl.
    const bin = join(repo.dir, '.bin');
    mkdirSync(bin);
    for (const tool of ['bash', 'dirname', 'cat', 'basename']) {
      const path = execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      copyFileSync(path, join(bin, tool));
      chmodSync(join(bin, tool), 0o755);
    }
    const r = spawnSync(join(bin, 'bash'), [join(repo.dir, 'scripts/setup.sh')], {
      env: { PATH: `${join(repo.dir, '.shims')}:${bin}`, HOME: repo.dir, KUBECONFIG: '/somewhere/kubeconfig', KS_SETUP_FOR: 'start' },
      encoding: 'utf8',
    });
    expect(r.stderr).toContain('[setup] openssl is missing: npm start makes the local edge');
    expect(r.status).toBe(1);
    expect(repo.calls()).toEqual([]);
  });
});
