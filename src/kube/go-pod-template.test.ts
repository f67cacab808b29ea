import { describe, expect, it } from 'vitest';
import { encodePodTemplateSpec } from './go-pod-template.js';

describe('encodePodTemplateSpec (Go typed encoding of core/v1 PodTemplateSpec, k8s.io/api v0.32)', () => {
  it('writes the never-omitted zero values: creationTimestamp null, containers null', () => {
    expect(encodePodTemplateSpec({})).toBe('{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}');
  });

  it('keeps Go field order and drops omitempty zero values; resources is always {}', () => {
    const out = encodePodTemplateSpec({
      spec: { schedulerName: 'default-scheduler', hostNetwork: false, containers: [{ image: 'nginx', name: 'c', env: [] }], volumes: [{ name: 'v', emptyDir: {} }] },
      metadata: { labels: { b: '1', a: '2' }, name: '' },
    });
    expect(out).toBe(
      '{"metadata":{"creationTimestamp":null,"labels":{"a":"2","b":"1"}},' +
        '"spec":{"volumes":[{"name":"v","emptyDir":{}}],"containers":[{"name":"c","image":"nginx","resources":{}}],"schedulerName":"default-scheduler"}}',
    );
  });

  it('pointers to zero values stay; quantities are canonical; struct-typed fields are never omitted', () => {
    const out = encodePodTemplateSpec({
      spec: {
        enableServiceLinks: false,
        containers: [
          {
            name: 'c',
            resources: { limits: { memory: '1024Mi', cpu: '1000m' } },
            env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
            readinessProbe: { httpGet: { path: '/' } },
          },
        ],
      },
    });
    expect(out).toContain('"enableServiceLinks":false');
    expect(out).toContain('"resources":{"limits":{"cpu":"1","memory":"1Gi"}}');
    expect(out).toContain('"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}');
    expect(out).toContain('"httpGet":{"path":"/","port":0}');
  });

  it('escapes strings as Go does', () => {
    expect(encodePodTemplateSpec({ metadata: { annotations: { a: '<b>&' } } })).toContain('"a":"\\u003cb\\u003e\\u0026"');
  });
});
