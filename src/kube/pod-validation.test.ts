import { describe, expect, it } from 'vitest';
import { formatFieldError } from './field-errors.js';
import { validatePodParts, type PodParts } from './pod-validation.js';

const c = (over: Record<string, unknown> = {}) => ({ name: 'c', image: 'i', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...over });
const messages = (parts: PodParts) => validatePodParts(parts).map(formatFieldError);

describe('validatePodParts', () => {
  it.each<[string, PodParts, string[]]>([
    ['a valid container', { containers: [c()] }, []],
    ['no containers', { containers: [] }, ['spec.containers: Required value']],
    ['image with whitespace', { containers: [c({ image: ' i' })] }, ['spec.containers[0].image: Invalid value: " i": must not have leading or trailing whitespace']],
    ['unknown pull policy', { containers: [c({ imagePullPolicy: 'Sometimes' })] },
      ['spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"']],
    ['missing termination message policy', { containers: [c({ terminationMessagePolicy: '' })] },
      ["spec.containers[0].terminationMessagePolicy: Required value: must be 'File' or 'FallbackToLogsOnError'"]],
    ['duplicate container names', { containers: [c(), c()] }, ['spec.containers[1].name: Duplicate value: "c"']],
    ['duplicate port names', { containers: [c({ ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { name: 'http', containerPort: 81, protocol: 'TCP' }] })] },
      ['spec.containers[0].ports[1].name: Duplicate value: "http"']],
    ['conflicting host ports', { containers: [c({ ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }] }), c({ name: 'd', ports: [{ containerPort: 81, hostPort: 80, protocol: 'TCP' }] })] },
      ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//80"']],
    ['env valueFrom without a source', { containers: [c({ env: [{ name: 'A', valueFrom: {} }] })] },
      ['spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`']],
    ['env fieldRef outside the downward API', { containers: [c({ env: [{ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.schedulerName' } } }] })] },
      ['spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.schedulerName": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"']],
    ['envFrom without a source', { containers: [c({ envFrom: [{ prefix: 'P_' }] })] },
      ['spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`']],
    ['subPath escaping the volume (reported at the list path)', { volumes: [{ name: 'v', emptyDir: {} }], containers: [c({ volumeMounts: [{ name: 'v', mountPath: '/v', subPath: '../x' }] })] },
      ['spec.containers[0].volumeMounts.subPath: Invalid value: "../x": must not contain \'..\'']],
    ['duplicate mount paths', { volumes: [{ name: 'v', emptyDir: {} }], containers: [c({ volumeMounts: [{ name: 'v', mountPath: '/v' }, { name: 'v', mountPath: '/v' }] })] },
      ['spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/v": must be unique']],
    ['a volume without source', { volumes: [{ name: 'v' }], containers: [c()] }, ['spec.volumes[0]: Required value: must specify a volume type']],
    ['two volume sources: the later in Kubernetes\' order is named', { volumes: [{ name: 'v', hostPath: { path: '/x' }, emptyDir: {} }], containers: [c()] },
      ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type']],
    ['two volume sources, with Kubernetes\' spelling of the path', { volumes: [{ name: 'v', emptyDir: {}, downwardAPI: {} }, { name: 'w', emptyDir: {}, cephfs: { monitors: ['m'] } }], containers: [c()] },
      ['spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type', 'spec.volumes[1].cephFS: Forbidden: may not specify more than 1 volume type']],
    ['a flexVolume is a volume source', { volumes: [{ name: 'v', flexVolume: { driver: 'example.com/d' } }], containers: [c()] }, []],
    ['duplicate volumes', { volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }], containers: [c()] }, ['spec.volumes[1].name: Duplicate value: "v"']],
    ['a secret volume without name', { volumes: [{ name: 'v', secret: {} }], containers: [c()] }, ['spec.volumes[0].secret.secretName: Required value']],
    ['an extended resource must have equal request and limit', { containers: [c({ resources: { requests: { 'example.com/gpu': '1' } } })] },
      ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources']],
    ['a non-container resource', { containers: [c({ resources: { limits: { pods: '1' } } })] },
      ['spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers']],
    ['an unparsable quantity', { containers: [c({ resources: { limits: { cpu: 'lots' } } })] },
      ["spec.containers[0].resources.limits[cpu]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]],
    ['a probe without handler', { containers: [c({ readinessProbe: { periodSeconds: 1 } })] }, ['spec.containers[0].readinessProbe: Required value: must specify a handler type']],
    ['a liveness probe with successThreshold 2', { containers: [c({ livenessProbe: { exec: { command: ['x'] }, successThreshold: 2 } })] },
      ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1']],
    ['restartPolicy on a regular container', { containers: [c({ restartPolicy: 'Always' })] }, ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']],
    ['probes on an ordinary init container', { containers: [c()], initContainers: [c({ name: 'i', readinessProbe: { exec: { command: ['x'] } } })] },
      ['spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always']],
    ['an init restartPolicy other than Always', { containers: [c()], initContainers: [c({ name: 'i', restartPolicy: 'Never' })] },
      ['spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['privilege escalation off but privileged', { containers: [c({ securityContext: { allowPrivilegeEscalation: false, privileged: true } })] },
      ['spec.containers[0].securityContext: Invalid value: {"allowPrivilegeEscalation":false,"privileged":true}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true']],
  ])('%s', (_name, parts, want) => {
    expect(messages(parts)).toEqual(want);
  });
});
