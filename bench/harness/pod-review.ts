// A realistic pod CREATE AdmissionReview of about 10 KB: what a Deployment's ReplicaSet sends
// for an app with a service-mesh proxy, a log shipper and a migration init container.
export const BENCH_NAMESPACE = 'payments';

type Json = Record<string, unknown>;

const env = (pairs: Record<string, string>): Json[] => Object.entries(pairs).map(([name, value]) => ({ name, value }));
const fieldEnv = (name: string, fieldPath: string): Json => ({ name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } });
const secretEnv = (name: string, secret: string, key: string): Json => ({ name, valueFrom: { secretKeyRef: { name: secret, key } } });

function probe(path: string, port: number, initialDelaySeconds: number): Json {
  return { httpGet: { path, port, scheme: 'HTTP' }, initialDelaySeconds, periodSeconds: 10, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 3 };
}

function resources(cpu: string, memory: string): Json {
  return { requests: { cpu, memory, 'ephemeral-storage': '256Mi' }, limits: { cpu, memory, 'ephemeral-storage': '1Gi' } };
}

const restricted: Json = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  runAsUser: 10001,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

const saMount: Json = { name: 'kube-api-access-7xk2q', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true };

function appContainer(): Json {
  return {
    name: 'checkout-api',
    image: 'registry.example.com/payments/checkout-api:v2.41.3@sha256:4f1d2c0b9e8a7f6e5d4c3b2a19087f6e5d4c3b2a19087f6e5d4c3b2a19087f6e',
    imagePullPolicy: 'IfNotPresent',
    args: ['--config=/etc/checkout/config.yaml', '--listen=:8080', '--metrics-listen=:9090', '--log-format=json'],
    ports: [
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
    ],
    env: [
      ...env({
        APP_ENV: 'production', LOG_LEVEL: 'info', HTTP_TIMEOUT: '15s', DB_POOL_SIZE: '20', CACHE_TTL: '300s',
        FEATURE_FLAGS: 'new-pricing,async-receipts,idempotency-v2', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4317',
        OTEL_SERVICE_NAME: 'checkout-api', GOMAXPROCS: '2', GOMEMLIMIT: '900MiB',
      }),
      fieldEnv('POD_NAME', 'metadata.name'),
      fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
      fieldEnv('POD_IP', 'status.podIP'),
      fieldEnv('NODE_NAME', 'spec.nodeName'),
      secretEnv('DB_PASSWORD', 'checkout-db', 'password'),
      secretEnv('STRIPE_API_KEY', 'checkout-payment-provider', 'api-key'),
    ],
    envFrom: [{ configMapRef: { name: 'checkout-api-env' } }],
    resources: resources('1', '1Gi'),
    livenessProbe: probe('/healthz', 8080, 10),
    readinessProbe: probe('/readyz', 8080, 5),
    startupProbe: { ...probe('/healthz', 8080, 0), failureThreshold: 30 },
    volumeMounts: [
      { name: 'config', mountPath: '/etc/checkout', readOnly: true },
      { name: 'tls', mountPath: '/etc/tls', readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'cache', mountPath: '/var/cache/checkout' },
      saMount,
    ],
    lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } },
    securityContext: restricted,
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}

function proxyContainer(): Json {
  return {
    name: 'envoy',
    image: 'registry.example.com/mesh/envoy:v1.31.2',
    imagePullPolicy: 'IfNotPresent',
    args: ['-c', '/etc/envoy/envoy.yaml', '--service-cluster', 'checkout-api', '--drain-time-s', '20', '--log-level', 'warn'],
    ports: [{ name: 'envoy-admin', containerPort: 15000, protocol: 'TCP' }, { name: 'envoy-in', containerPort: 15006, protocol: 'TCP' }],
    env: [
      ...env({ ENVOY_UID: '1337', ISTIO_META_CLUSTER_ID: 'prod-eu-west-1', ISTIO_META_MESH_ID: 'mesh-prod', TRUST_DOMAIN: 'cluster.local' }),
      fieldEnv('POD_NAME', 'metadata.name'),
      fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
      fieldEnv('INSTANCE_IP', 'status.podIP'),
      fieldEnv('SERVICE_ACCOUNT', 'spec.serviceAccountName'),
    ],
    resources: resources('200m', '256Mi'),
    readinessProbe: probe('/healthz/ready', 15021, 1),
    volumeMounts: [{ name: 'envoy-config', mountPath: '/etc/envoy', readOnly: true }, { name: 'tls', mountPath: '/etc/tls', readOnly: true }, saMount],
    securityContext: { ...restricted, runAsUser: 1337 },
  };
}

function logShipper(): Json {
  return {
    name: 'log-shipper',
    image: 'registry.example.com/observability/fluent-bit:3.1.9',
    args: ['--config=/fluent-bit/etc/fluent-bit.conf'],
    env: [...env({ FLB_LOG_LEVEL: 'warn', OUTPUT_HOST: 'logs.observability.svc', OUTPUT_PORT: '24224' }), fieldEnv('POD_NAME', 'metadata.name')],
    resources: resources('50m', '64Mi'),
    livenessProbe: probe('/api/v1/health', 2020, 10),
    volumeMounts: [{ name: 'fluent-bit-config', mountPath: '/fluent-bit/etc', readOnly: true }, { name: 'tmp', mountPath: '/var/log/app', readOnly: true }],
    securityContext: restricted,
  };
}

function migrateContainer(): Json {
  return {
    name: 'db-migrate',
    image: 'registry.example.com/payments/checkout-api:v2.41.3',
    command: ['/app/migrate'],
    args: ['--to=latest', '--lock-timeout=60s'],
    env: [...env({ APP_ENV: 'production' }), secretEnv('DB_PASSWORD', 'checkout-db', 'password')],
    resources: resources('100m', '128Mi'),
    volumeMounts: [{ name: 'config', mountPath: '/etc/checkout', readOnly: true }, saMount],
    securityContext: restricted,
  };
}

function pod(namespace: string): Json {
  const app = 'checkout-api';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${app}-7d9f8c6b5d-`,
      namespace,
      labels: {
        app, 'app.kubernetes.io/name': app, 'app.kubernetes.io/instance': `${app}-prod`, 'app.kubernetes.io/version': 'v2.41.3',
        'app.kubernetes.io/component': 'api', 'app.kubernetes.io/part-of': 'payments', 'app.kubernetes.io/managed-by': 'argocd',
        'pod-template-hash': '7d9f8c6b5d', 'security.istio.io/tlsMode': 'istio', tier: 'backend', team: 'payments-core',
      },
      annotations: {
        'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090', 'prometheus.io/path': '/metrics',
        'kubectl.kubernetes.io/default-container': app, 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
        'checksum/config': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'checksum/secrets': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        'argocd.argoproj.io/tracking-id': 'payments:apps/Deployment:payments/checkout-api',
      },
      ownerReferences: [{
        apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-7d9f8c6b5d`,
        uid: '5c0e5f1a-3b7d-4f2e-9a61-2d8c4b7e9f10', controller: true, blockOwnerDeletion: true,
      }],
    },
    spec: {
      serviceAccountName: app,
      automountServiceAccountToken: true,
      priorityClassName: 'business-critical',
      terminationGracePeriodSeconds: 45,
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      enableServiceLinks: false,
      securityContext: { fsGroup: 10001, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      imagePullSecrets: [{ name: 'registry-pull' }],
      nodeSelector: { 'kubernetes.io/os': 'linux', 'node.kubernetes.io/pool': 'general' },
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'dedicated', operator: 'Equal', value: 'payments', effect: 'NoSchedule' },
      ],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{
            weight: 100,
            podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': app } } },
          }],
        },
      },
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { 'app.kubernetes.io/name': app } } },
      ],
      initContainers: [migrateContainer()],
      containers: [appContainer(), proxyContainer(), logShipper()],
      volumes: [
        { name: 'config', configMap: { name: `${app}-config`, defaultMode: 420 } },
        { name: 'envoy-config', configMap: { name: 'envoy-sidecar', defaultMode: 420 } },
        { name: 'fluent-bit-config', configMap: { name: 'fluent-bit-sidecar', defaultMode: 420 } },
        { name: 'tls', secret: { secretName: `${app}-tls`, defaultMode: 288 } },
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
        { name: 'cache', emptyDir: { sizeLimit: '512Mi' } },
        {
          name: 'kube-api-access-7xk2q',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
            ],
          },
        },
      ],
    },
  };
}

/** A pod CREATE review as the API server sends it to a mutating webhook. */
export function podAdmissionReview(uid: string, namespace = BENCH_NAMESPACE): Json {
  const kind = { group: '', version: 'v1', kind: 'Pod' };
  const resource = { group: '', version: 'v1', resource: 'pods' };
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid, kind, resource, requestKind: kind, requestResource: resource,
      namespace, operation: 'CREATE',
      userInfo: {
        username: 'system:serviceaccount:kube-system:replicaset-controller',
        uid: '0f6c7a52-8b1e-4d2a-a3c4-51e7d9b2c8aa',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
      },
      object: pod(namespace),
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    },
  };
}

/** `count` serialized reviews that differ only in uid (the API server never repeats one). */
export function podReviewBodies(count: number, namespace = BENCH_NAMESPACE): { uids: string[]; bodies: string[] } {
  const uids = Array.from({ length: count }, (_, i) => `7c1f0b9e-bench-4a6d-9e2f-${String(i).padStart(12, '0')}`);
  return { uids, bodies: uids.map((uid) => JSON.stringify(podAdmissionReview(uid, namespace))) };
}
