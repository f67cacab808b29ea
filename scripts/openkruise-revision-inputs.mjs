// Writes scripts/openkruise-revision-inputs.json: the objects scripts/openkruise-revision-vectors.ts
// hands to OpenKruise's Go code. selfCheck: OpenKruise's own vectors (tutorial, hash_test.go,
// volume_templates_hash_test.go) with their expected values; fixtures: the takeover e2e's objects,
// each followed by its image-changed spec. Run: node scripts/openkruise-revision-inputs.mjs scripts/openkruise-revision-inputs.json
import { writeFileSync } from 'node:fs';
const container = (name, image, extra = {}) => ({ name, image, imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', ...extra });
const template = (app, image, extra = {}) => ({
  metadata: { labels: { app } },
  spec: { containers: [container('main', image, { ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '100m', memory: '64Mi' } } })], restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler', ...extra },
});
const guestbook = (image) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'guestbook-clone', namespace: 'default' }, spec: { replicas: 20, selector: { matchLabels: { 'app.kubernetes.io/name': 'guestbook-clone' } }, template: { metadata: { labels: { 'app.kubernetes.io/name': 'guestbook-clone' } }, spec: { containers: [{ name: 'guestbook', image, imagePullPolicy: 'Always', ports: [{ name: 'http-server', containerPort: 3000, protocol: 'TCP' }], terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }], restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' } } } });
const sidecar = (containers, initContainers) => ({ metadata: { name: 'test-sidecar-set' }, spec: { containers, ...(initContainers ? { initContainers } : {}) } });
const c1 = { name: 'container1', image: 'test-image' };
const c1always = { ...c1, restartPolicy: 'Always' };
const pvc = (name, request, limit) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request }, limits: { storage: limit } } } });
const selfCheck = [
  { input: { kind: 'CloneSet', object: guestbook('openkruise/guestbook:v1') }, expect: { 'revision.name': 'guestbook-clone-64598d67b' } },
  { input: { kind: 'CloneSet', object: guestbook('openkruise/guestbook:v2') }, expect: { 'revision.name': 'guestbook-clone-56dfcdfff9' } },
  { input: { kind: 'SidecarSet', object: sidecar([c1]) }, expect: { 'annotations.kruise.io/sidecarset-hash': 'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78' } },
  { input: { kind: 'SidecarSet', object: sidecar([c1], [c1]) }, expect: { 'annotations.kruise.io/sidecarset-hash': 'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78', 'annotations.kruise.io/sidecarset-hash-without-image': '8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759' } },
  { input: { kind: 'SidecarSet', object: sidecar([c1], [c1always]) }, expect: { 'annotations.kruise.io/sidecarset-hash': '4xwx4d4844vd4v9x79wb4xbxf4xb29475cc4446v8cz2c2f2f5c5bw448vd42z8w', 'annotations.kruise.io/sidecarset-hash-without-image': '5725fw8bwbx249bw57v5892c847dzf48bww9zb7c86xb95264fdz26654847b2c8' } },
  { input: { kind: 'ClaimTemplates', object: [] }, expect: { hash: '86995377' } },
  { input: { kind: 'ClaimTemplates', object: [pvc('pvc-1', '1Gi', '2Gi')] }, expect: { hash: '1129974074' } },
  { input: { kind: 'ClaimTemplates', object: [pvc('pvc-2', '2Gi', '4Gi'), pvc('pvc-1', '1Gi', '2Gi')] }, expect: { hash: '510584408' } },
];
const ns = 'shop';
const labels = (app) => ({ app });
const cloneset = (name, image, vct) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: ns, labels: labels(name) }, spec: { replicas: 2, selector: { matchLabels: labels(name) }, template: template(name, image), ...(vct ? { volumeClaimTemplates: vct } : {}), updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 }, revisionHistoryLimit: 10 } });
const data = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' } }];
const sts = (name, image) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name, namespace: ns, labels: labels(name) }, spec: { replicas: 2, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: labels(name) }, template: template(name, image, { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] }), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1, partition: 0 } }, revisionHistoryLimit: 10 } });
const ds = (name, image) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name, namespace: ns, labels: labels(name) }, spec: { selector: { matchLabels: labels(name) }, template: template(name, image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, partition: 0 } }, revisionHistoryLimit: 10 } });
const sc = (name, image) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name }, spec: { selector: { matchLabels: { mesh: 'on' } }, containers: [{ name: 'proxy', image, imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, shareVolumePolicy: { type: 'disabled' } }], updateStrategy: { type: 'RollingUpdate', partition: 0, maxUnavailable: 1 } } });
// A template reaching more of what the spew printout covers, with a collision count set.
const rich = () => {
  const o = ds('agent', 'nginx:1.25');
  const c = o.spec.template.spec.containers[0];
  Object.assign(c, {
    env: [{ name: 'MODE', value: 'fast' }, { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    resources: { limits: { cpu: '1.5', memory: '1Gi', 'ephemeral-storage': '2G' }, requests: { cpu: '250m', memory: '128974848', 'ephemeral-storage': '1k' } },
    readinessProbe: { httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
    livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 5 },
    volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
    securityContext: { runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
  });
  Object.assign(o.spec.template.spec, {
    volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '500Mi' } }, { name: 'cfg', configMap: { name: 'agent', defaultMode: 420 } }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
  });
  o.metadata.annotations = { note: 'ünïcode ✓' };
  o.spec.template.metadata.annotations = { note: 'ünïcode ✓', empty: '' };
  o.status = { collisionCount: 2 };
  return o;
};
const fixtures = {
  cloneset: [{ kind: 'CloneSet', object: cloneset('web', 'nginx:1.25') }, { kind: 'CloneSet', object: cloneset('web', 'nginx:1.26') }],
  'cloneset-vct': [{ kind: 'CloneSet', object: cloneset('db', 'nginx:1.25', data) }, { kind: 'CloneSet', object: cloneset('db', 'nginx:1.26', data) }],
  statefulset: [{ kind: 'StatefulSet', object: sts('store', 'nginx:1.25') }, { kind: 'StatefulSet', object: sts('store', 'nginx:1.26') }],
  daemonset: [{ kind: 'DaemonSet', object: ds('agent', 'nginx:1.25') }, { kind: 'DaemonSet', object: ds('agent', 'nginx:1.26') }, { kind: 'DaemonSet', object: rich() }],
  sidecarset: [{ kind: 'SidecarSet', object: sc('mesh', 'busybox:1.36') }, { kind: 'SidecarSet', object: sc('mesh', 'busybox:1.37') }],
};
writeFileSync(process.argv[2], JSON.stringify({ selfCheck, fixtures }, null, 1) + '\n');
