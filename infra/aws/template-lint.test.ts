// The SAM template `deploy aws` deploys, through the CloudFormation linter (cfn-lint, which this
// machine image ships): an invalid resource, property or reference fails here, not at deploy time.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEMPLATE = join(dirname(fileURLToPath(import.meta.url)), 'template.yaml');

describe('infra/aws/template.yaml', () => {
  it('passes cfn-lint', () => {
    const r = spawnSync('cfn-lint', ['--format', 'parseable', TEMPLATE], { encoding: 'utf8' });
    expect(r.error, 'cfn-lint must be installed (pip package cfn-lint)').toBeUndefined();
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);
});
