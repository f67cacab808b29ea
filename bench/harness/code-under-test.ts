// Which controller a benchmark run measures, for its report: the commit, and whether src/ or
// functions/ had uncommitted changes (the children are bundled from the files as found).
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from '../../test/cluster/control-plane.js';

export function codeUnderTest(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT }).toString().trim();
  try {
    const changed = git('status', '--short', '--', 'src', 'functions').split('\n').filter(Boolean).length;
    return `${git('log', '-1', '--format=%h %cI')}${changed ? ` + ${changed} uncommitted files under src/ and functions/` : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}
