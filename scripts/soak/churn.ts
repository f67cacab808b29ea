// The soak's churn: in each of N namespaces a CloneSet (with a PUB and a WorkloadSpread on it),
// an Advanced StatefulSet, a SidecarSet for its pods and bare pods, changed one step at a time
// with a pause between steps (bounded request rate); plus the kruise-configuration ConfigMap.
// Every call's refusal is noted; every spec change is handed to the latency probe.
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists } from '../../src/kube/errors.js';
import type { ChangeLatency, Refusals } from './probes.js';

export const SOAK_LABEL = 'kruise-serverless.io/soak';
const CS = 'apps.kruise.io/v1alpha1';
const POD_SPEC = { automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] };
const labels = { [SOAK_LABEL]: 'true' };

export type ChurnOptions = { namespaces: number; stepMs: number };

export class Churn {
  steps = 0;
  private stopped = false;
  private paused = false;
  private readonly loops: Promise<void>[] = [];
  private podSeq = 0;

  constructor(private readonly kube: KubeHttp, private readonly refusals: Refusals, private readonly latency: ChangeLatency, private readonly opts: ChurnOptions) {}

  readonly namespaces = () => Array.from({ length: this.opts.namespaces }, (_, i) => `soak-${i}`);

  /** One API call; a refusal is noted, not thrown. */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    const sentAt = Date.now();
    try {
      return await fn();
    } catch (e) {
      this.refusals.note(what, e, sentAt);
      return undefined;
    }
  }

  private async changed(what: string, fn: () => Promise<KubeObject>): Promise<void> {
    const obj = await this.call(what, fn);
    if (obj) this.latency.changed(obj);
  }

  private async create(obj: KubeObject): Promise<void> {
    await this.changed(`create ${obj.kind}`, () => this.kube.create(obj).catch(async (e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
      return this.kube.get(obj.apiVersion!, obj.kind!, obj.metadata!.name!, obj.metadata!.namespace);
    }));
  }

  async setUp(): Promise<void> {
    await this.call('create namespace', () => this.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }));
    for (const ns of this.namespaces()) {
      await this.call('create namespace', () => this.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } }).catch((e: unknown) => {
        if (!isAlreadyExists(e)) throw e;
      }));
      await this.create(this.sidecarSet(ns, 'sidecar:1'));
      await this.create({ apiVersion: CS, kind: 'CloneSet', metadata: { name: 'web', namespace: ns, labels }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', soak: ns } }, spec: POD_SPEC } } });
      await this.create({ apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'web', namespace: ns, labels }, spec: { targetRef: { apiVersion: CS, kind: 'CloneSet', name: 'web' }, maxUnavailable: 1 } });
      await this.create(this.workloadSpread(ns, 2));
      await this.create({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns, labels }, spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db', soak: ns } }, spec: POD_SPEC } } });
    }
  }

  private sidecarSet(ns: string, image: string): KubeObject {
    return { apiVersion: CS, kind: 'SidecarSet', metadata: { name: ns, labels }, spec: { namespace: ns, selector: { matchLabels: { soak: ns } }, containers: [{ name: 'sidecar', image }] } };
  }

  private workloadSpread(ns: string, maxA: number): KubeObject {
    const zone = (z: string) => ({ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [z] }] });
    return {
      apiVersion: CS, kind: 'WorkloadSpread', metadata: { name: 'web', namespace: ns, labels },
      spec: { targetRef: { apiVersion: CS, kind: 'CloneSet', name: 'web' }, subsets: [{ name: 'a', requiredNodeSelectorTerm: zone('a'), maxReplicas: maxA }, { name: 'b', requiredNodeSelectorTerm: zone('b') }] },
    };
  }

  private readonly pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

  /** One random change in `ns`. */
  async step(ns: string): Promise<void> {
    this.steps += 1;
    const ref = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, metadata: { name, namespace: ns } });
    switch (this.pick(['scale-web', 'scale-db', 'pod', 'pod', 'evict', 'pub', 'sidecarset', 'spread'] as const)) {
      case 'scale-web':
        return this.changed('scale CloneSet', () => this.kube.patch(ref(CS, 'CloneSet', 'web'), { spec: { replicas: 1 + Math.floor(Math.random() * 4) } }));
      case 'scale-db':
        return this.changed('scale StatefulSet', () => this.kube.patch(ref('apps.kruise.io/v1beta1', 'StatefulSet', 'db'), { spec: { replicas: 1 + Math.floor(Math.random() * 3) } }));
      case 'pod': {
        const pods = (await this.call('list pods', () => this.kube.list('v1', 'Pod', { namespace: ns, labelSelector: 'app=bare' })))?.items ?? [];
        if (pods.length >= 3) return void (await this.call('delete pod', () => this.kube.delete(pods[0]!)));
        return void (await this.call('create pod', () => this.kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `bare-${++this.podSeq}`, namespace: ns, labels: { app: 'bare', soak: ns } }, spec: POD_SPEC })));
      }
      case 'evict': {
        const pods = (await this.call('list pods', () => this.kube.list('v1', 'Pod', { namespace: ns, labelSelector: 'app=web' })))?.items ?? [];
        if (!pods.length) return;
        const name = this.pick(pods).metadata?.name ?? '';
        await this.call('evict pod', () => this.kube.request('POST', `/api/v1/namespaces/${ns}/pods/${name}/eviction`, { body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name, namespace: ns } } }));
        return;
      }
      case 'pub':
        return this.changed('update PUB', () => this.kube.patch(ref('policy.kruise.io/v1alpha1', 'PodUnavailableBudget', 'web'), { spec: { maxUnavailable: this.pick([1, '50%']) } }));
      case 'sidecarset':
        return this.changed('update SidecarSet', () => this.kube.patch({ apiVersion: CS, kind: 'SidecarSet', metadata: { name: ns } }, { spec: { containers: [{ name: 'sidecar', image: `sidecar:${1 + Math.floor(Math.random() * 9)}` }] } }));
      case 'spread':
        return this.changed('update WorkloadSpread', () => this.kube.patch(ref(CS, 'WorkloadSpread', 'web'), this.workloadSpread(ns, 2 + Math.floor(Math.random() * 2))));
    }
  }

  private async configMapStep(): Promise<void> {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' }, data: { 'soak-step': String(this.steps) } };
    await this.call('update ConfigMap', () => this.kube.apply(cm, 'kruise-serverless-soak'));
  }

  start(): void {
    const loop = (step: () => Promise<void>, everyMs: number) => (async () => {
      while (!this.stopped) {
        if (!this.paused) await step();
        await new Promise((r) => setTimeout(r, everyMs * (0.5 + Math.random())));
      }
    })();
    for (const ns of this.namespaces()) this.loops.push(loop(() => this.step(ns), this.opts.stepMs));
    this.loops.push(loop(() => this.configMapStep(), 10_000));
  }

  pause(on: boolean): void {
    this.paused = on;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled(this.loops);
  }

  /** Deletes the namespaces and SidecarSets the churn made. */
  async tearDown(): Promise<void> {
    for (const ns of this.namespaces()) {
      await this.call('delete SidecarSet', () => this.kube.delete({ apiVersion: CS, kind: 'SidecarSet', metadata: { name: ns } }));
      await this.call('delete namespace', () => this.kube.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
    }
  }
}
