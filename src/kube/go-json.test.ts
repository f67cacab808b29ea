import { describe, expect, it } from 'vitest';
import { goJSON, goString } from './go-json.js';
import { encodeSidecarContainers } from './go-sidecar-containers.js';

const one = (c: Record<string, unknown>) => encodeSidecarContainers([c]).slice(1, -1);

describe('encodeSidecarContainers', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['minimal: name, empty resources, defaulted-away zero structs', { name: 'a' },
      '{"name":"a","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['top-level fields in Go order, whatever the input order', {
      tty: true, stdinOnce: true, stdin: true, securityContext: { privileged: true }, imagePullPolicy: 'Always',
      terminationMessagePolicy: 'File', terminationMessagePath: '/t', lifecycle: { preStop: { exec: { command: ['x'] } } },
      startupProbe: { tcpSocket: { port: 1 } }, readinessProbe: { tcpSocket: { port: 2 } }, livenessProbe: { tcpSocket: { port: 3 } },
      volumeDevices: [{ devicePath: '/d', name: 'd' }], volumeMounts: [{ mountPath: '/m', name: 'v' }], restartPolicy: 'Always',
      resizePolicy: [{ restartPolicy: 'NotRequired', resourceName: 'cpu' }], env: [{ value: '1', name: 'E' }], envFrom: [{ prefix: 'P' }],
      ports: [{ containerPort: 80 }], workingDir: '/w', args: ['b'], command: ['c'], image: 'i', name: 'n',
      transferEnv: [{ envName: 'X', sourceContainerName: 'app' }], shareVolumePolicy: { type: 'enabled' },
      upgradeStrategy: { hotUpgradeEmptyImage: 'e', upgradeType: 'HotUpgrade' }, podInjectPolicy: 'AfterAppContainer',
    },
    '{"name":"n","image":"i","command":["c"],"args":["b"],"workingDir":"/w","ports":[{"containerPort":80}],"envFrom":[{"prefix":"P"}],' +
      '"env":[{"name":"E","value":"1"}],"resources":{},"resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"}],' +
      '"restartPolicy":"Always","volumeMounts":[{"name":"v","mountPath":"/m"}],"volumeDevices":[{"name":"d","devicePath":"/d"}],' +
      '"livenessProbe":{"tcpSocket":{"port":3}},"readinessProbe":{"tcpSocket":{"port":2}},"startupProbe":{"tcpSocket":{"port":1}},' +
      '"lifecycle":{"preStop":{"exec":{"command":["x"]}}},"terminationMessagePath":"/t","terminationMessagePolicy":"File",' +
      '"imagePullPolicy":"Always","securityContext":{"privileged":true},"stdin":true,"stdinOnce":true,"tty":true,' +
      '"podInjectPolicy":"AfterAppContainer","upgradeStrategy":{"upgradeType":"HotUpgrade","hotUpgradeEmptyImage":"e"},' +
      '"shareVolumePolicy":{"type":"enabled"},"transferEnv":[{"sourceContainerName":"app","envName":"X"}]}'],
    ['omitempty drops zero values and empty lists', { name: 'a', image: '', command: [], stdin: false, ports: [{ containerPort: 1, hostPort: 0, protocol: '' }] },
      '{"name":"a","ports":[{"containerPort":1}],"resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['pointers are kept when they point at zero values', { name: 'a', securityContext: { privileged: false, runAsUser: 0 } },
      '{"name":"a","resources":{},"securityContext":{"privileged":false,"runAsUser":0},"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['resource maps sorted, quantities canonical', { name: 'a', resources: { requests: { memory: '1024Mi', cpu: '0.5' }, limits: { cpu: '1000m' } } },
      '{"name":"a","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"500m","memory":"1Gi"}},"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['env sources in Go order; divisor always written', {
      name: 'a', env: [{ name: 'A', valueFrom: { secretKeyRef: { key: 'k', name: 's' }, resourceFieldRef: { resource: 'limits.cpu' }, fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }],
    }, '{"name":"a","env":[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},' +
      '"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"},"secretKeyRef":{"name":"s","key":"k"}}}],"resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['probe: handler first, then timings; httpGet port written even when absent', {
      name: 'a', livenessProbe: { failureThreshold: 3, periodSeconds: 10, httpGet: { scheme: 'HTTP', path: '/' }, initialDelaySeconds: 5 },
    }, '{"name":"a","resources":{},"livenessProbe":{"httpGet":{"path":"/","port":0,"scheme":"HTTP"},"initialDelaySeconds":5,"periodSeconds":10,"failureThreshold":3},' +
      '"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['grpc service is written as null when absent (no omitempty)', { name: 'a', readinessProbe: { grpc: { port: 9 } } },
      '{"name":"a","resources":{},"readinessProbe":{"grpc":{"port":9,"service":null}},"upgradeStrategy":{},"shareVolumePolicy":{}}'],
    ['fields unknown to the schema follow, sorted', { name: 'a', zeta: 1, alpha: { b: 2, a: 1 }, nothing: null },
      '{"name":"a","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{},"alpha":{"a":1,"b":2},"zeta":1}'],
  ])('%s', (_name, container, want) => {
    expect(one(container)).toBe(want);
  });

  it.each([
    ['absent list is null', undefined, 'null'],
    ['empty list is []', [], '[]'],
  ])('%s', (_name, list, want) => {
    expect(encodeSidecarContainers(list)).toBe(want);
  });
});

describe('goString', () => {
  it.each([
    ['HTML characters escaped', '<a&b>', '"\\u003ca\\u0026b\\u003e"'],
    ['quotes and backslashes', 'a"b\\c', '"a\\"b\\\\c"'],
    ['short escapes', '\n\r\t\b\f', '"\\n\\r\\t\\b\\f"'],
    ['other control characters as \\u00XX', '\u0001', '"\\u0001"'],
    ['line and paragraph separators', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['non-ASCII kept', 'é✓😀', '"é✓😀"'],
    ['a lone surrogate becomes U+FFFD', '\ud800x', '"\\ufffdx"'],
  ])('%s', (_name, s, want) => {
    expect(goString(s)).toBe(want);
  });

  it('map keys sort by code point', () => {
    expect(goJSON({ b: 1, B: 2, a: 3, '\uffff': 4, '😀': 5 })).toBe('{"B":2,"a":3,"b":1,"\uffff":4,"😀":5}');
  });
});
