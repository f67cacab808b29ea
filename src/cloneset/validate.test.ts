import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { formatFieldErrors } from '../kube/field-errors.js';
import type { CloneSetLike } from './defaults.js';
import { validateCloneSet } from './validate.js';

const SEEDS = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'seeds');
const seedCloneSets = readdirSync(SEEDS)
  .filter((f) => f.includes('cloneset'))
  .flatMap((f) => parseAllDocuments(readFileSync(join(SEEDS, f), 'utf8')).map((d) => [f, d.toJS() as CloneSetLike & { kind?: string }] as const))
  .filter(([, o]) => o?.kind === 'CloneSet');

const base = (): CloneSetLike => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } },
  },
});
const message = (cs: CloneSetLike, old?: CloneSetLike) => {
  const errs = validateCloneSet(cs, old);
  return errs.length ? formatFieldErrors(errs) : 'valid';
};
const withSpec = (spec: Partial<CloneSetLike['spec']>): CloneSetLike => ({ ...base(), spec: { ...base().spec, ...spec } });

describe('validateCloneSet', () => {
  it.each(seedCloneSets)('the seed %s is valid', (_file, cs) => {
    expect(message(cs)).toBe('valid');
  });

  it.each<[string, CloneSetLike, string]>([
    ['negative replicas', withSpec({ replicas: -1 }), 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ['selector not matching the template', withSpec({ selector: { matchLabels: { app: 'other' } } }),
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
    ['no selector', withSpec({ selector: undefined }),
      '[spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`]'],
    ['an empty selector', withSpec({ selector: {} }),
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for cloneset'],
    ['restartPolicy OnFailure', withSpec({ template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'nginx:1' }] } } }),
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ['activeDeadlineSeconds', withSpec({ template: { metadata: { labels: { app: 'web' } }, spec: { activeDeadlineSeconds: 5, containers: [{ name: 'main', image: 'nginx:1' }] } } }),
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in cloneset is not Supported'],
    ['no containers', withSpec({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } } }), 'spec.template.spec.containers: Required value'],
    ['an unknown update type', withSpec({ updateStrategy: { type: 'Rolling' } }),
      "spec.updateStrategy.type: Invalid value: \"Rolling\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"],
    ['a partition that is not a percentage', withSpec({ updateStrategy: { partition: 'half' } }),
      'spec.updateStrategy.partition: Invalid value: "half": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage'],
    ['a negative partition', withSpec({ updateStrategy: { partition: -1 } }), 'spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0'],
    ['maxSurge with InPlaceOnly', withSpec({ updateStrategy: { type: 'InPlaceOnly', maxSurge: 1 } }),
      'spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly'],
    ['maxUnavailable and maxSurge both 0', withSpec({ updateStrategy: { maxUnavailable: 0, maxSurge: 0 } }),
      'spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1'],
    ['duplicated podsToDelete', withSpec({ scaleStrategy: { podsToDelete: ['web-a', 'web-b', 'web-a', 'web-a'] } }),
      'spec.scaleStrategy.podsToDelete: Invalid value: []string{"web-a", "web-b", "web-a", "web-a"}: duplicated items [web-a web-a]'],
    ['weight and order priority together', withSpec({ updateStrategy: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { a: 'b' } } }], orderPriority: [{ orderedKey: 'k' }] } } }),
      'spec.updateStrategy.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used'],
    ['a duplicated scatter term', withSpec({ updateStrategy: { scatterStrategy: [{ key: 'zone', value: 'a' }, { key: 'zone', value: 'a' }] } }),
      'spec.updateStrategy.scatterStrategy: Required value: duplicated key=zone value=a'],
  ])('%s', (_name, cs, want) => {
    expect(message(cs)).toBe(want);
  });

  it('zero replicas need no maxUnavailable or maxSurge', () => {
    expect(message(withSpec({ replicas: 0, updateStrategy: { maxUnavailable: 0, maxSurge: 0 } }))).toBe('valid');
  });

  it('mounts of volumeClaimTemplates are valid: the claims stand in as volumes', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } };
    expect(message(withSpec({ template, volumeClaimTemplates: [{ metadata: { name: 'data' } }] }))).toBe('valid');
    expect(message(withSpec({ template }))).toBe('spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"');
  });

  describe('updates', () => {
    it('the selector cannot change; replicas, template and strategies can', () => {
      const old = base();
      expect(message(withSpec({ replicas: 5, updateStrategy: { partition: 2 } }), old)).toBe('valid');
      const moved = withSpec({ selector: { matchLabels: { app: 'web', tier: 'x' } }, template: { metadata: { labels: { app: 'web', tier: 'x' } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } } });
      expect(message(moved, old)).toBe(
        "spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden",
      );
    });

    it('InPlaceOnly: only container images may change in the template spec', () => {
      const old = withSpec({ updateStrategy: { type: 'InPlaceOnly' } });
      const image = withSpec({ updateStrategy: { type: 'InPlaceOnly' }, template: { metadata: { labels: { app: 'web', v: '2' } }, spec: { containers: [{ name: 'main', image: 'nginx:2' }] } } });
      expect(message(image, old)).toBe('valid');
      const env = withSpec({ updateStrategy: { type: 'InPlaceOnly' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1', env: [{ name: 'A', value: 'b' }] }] } } });
      expect(message(env, old)).toBe('spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env');
    });
  });
});
