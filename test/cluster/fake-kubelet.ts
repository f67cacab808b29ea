// Plays the kubelet for tests, like kwok: registers fake Nodes (with zones and labels) and, for
// every pod the real scheduler binds to them, writes the status a kubelet would (Running, Ready,
// container statuses with image, imageID and restartCount). Tests steer it: flip readiness,
// fail a container, complete a pod, or let it "restart" a container after an in-place image
// change; refuse to pull some images (ErrImagePull, then ImagePullBackOff, as a kubelet reports a
// pull that fails), or let containers running a given command exit at once. Pods being deleted are finalised (as the kubelet does after graceful termination).
// Opt-in (`useModel`, benchmarks): a kubelet model (kubelet-model.ts) makes pods, in-place
// restarts and terminations take what a real kubelet takes; without it everything is instant.
import { createHash } from 'node:crypto';
import type { V1ContainerStatus, V1Pod, V1PodCondition, V1Taint } from '@kubernetes/client-node';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists, isConflict, isNotFound, KubeApiError } from '../../src/kube/errors.js';
import type { KubeletModel, PodTimeline } from './kubelet-model.js';
import { PodInformer } from './pod-informer.js';

export type FakeNode = {
  name: string;
  labels?: Record<string, string>;
  taints?: V1Taint[];
  /** Allocatable resources; defaults to a roomy node. */
  allocatable?: Record<string, string>;
};

type PodOverride = {
  notReady?: boolean;
  failed?: Record<string, number>; // container → exit code, while it is down
  completed?: number; // exit code of the whole pod (Job-style pods)
};

const KUBELET_OWNED_CONDITIONS = ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'];

export function imageIdOf(image: string): string {
  return `docker-pullable://${image.split(':')[0]}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

export type PodSource = 'etcd' | 'watch-cache' | 'informer';

export class FakeKubelet {
  private readonly nodes = new Map<string, FakeNode>();
  private readonly overrides = new Map<string, PodOverride>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private ipCounter = 0;
  private readonly ips = new Map<string, string>();
  /** When each container last restarted for an in-place image change (pod/container → ms). */
  private readonly restartedAt = new Map<string, number>();
  private restartReadyDelayMs = 0;
  private readonly failingPulls = new Set<string>();
  private readonly exitingCommands = new Set<string>();
  /** How the container runtime reports an image (spec image → status image and imageID). */
  private readonly imageReports = new Map<string, { image?: string; imageID?: string }>();
  /** The spec image each container was started from (containerID → image). */
  private readonly startedFrom = new Map<string, string>();
  private model: KubeletModel | undefined;
  /** With a model: each pod's start (pod key/uid → timeline), each container's restart, each deletion's end. */
  private readonly podStarts = new Map<string, PodTimeline>();
  private readonly restarts = new Map<string, PodTimeline & { image: string }>();
  private readonly goneAt = new Map<string, number>();
  /** With a model: when each container (pod/container) first passes its readiness probe. */
  private readonly readyAt = new Map<string, number>();
  errors: unknown[] = [];
  private readonly informer: PodInformer | undefined;

  /**
   * Where each pass reads the pods bound to a node (`podSource`; benchmarks opt in, tests keep the default):
   * - `etcd` (default): a LIST of every pod in the cluster (bound or not), a range read from etcd;
   * - `watch-cache`: a LIST at resourceVersion 0, from the API server's watch cache — still one
   *   filter over every pod in the cluster per pass (the cache indexes only `spec.nodeName=<node>`);
   * - `informer`: as a kubelet does (pod-informer.ts): one LIST, then a WATCH; each pass works on
   *   the pods in memory, and the API server filters the cluster's pods once per change, not per pass.
   */
  constructor(private readonly kube: KubeHttp, private readonly pollMs = 150, private readonly opts: { podSource?: PodSource } = {}) {
    if (opts.podSource === 'informer') this.informer = new PodInformer(kube);
  }

  /** Registers (or re-registers) nodes as Ready and schedulable. */
  async addNodes(nodes: FakeNode[]): Promise<void> {
    for (const n of nodes) {
      this.nodes.set(n.name, n);
      const labels = { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'kruise-serverless.io/fake-node': 'true', ...n.labels };
      const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: n.name } };
      try {
        await this.kube.create({ ...node, metadata: { name: n.name, labels }, spec: { taints: n.taints ?? [] } });
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        await this.kube.patch(node, { metadata: { labels } });
      }
      // The TaintNodesByCondition admission plugin adds node.kubernetes.io/not-ready; we own taints.
      await this.kube.patch(node, { spec: { taints: n.taints ?? [] } });
      const allocatable = { cpu: '32', memory: '128Gi', pods: '500', 'ephemeral-storage': '500Gi', ...n.allocatable };
      const now = new Date();
      await this.kube.patch(
        node,
        {
            status: {
              capacity: allocatable,
              allocatable,
              conditions: [
                { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'fake kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
              ],
              addresses: [{ type: 'InternalIP', address: `192.0.2.${this.nodes.size}` }, { type: 'Hostname', address: n.name }],
              nodeInfo: {
                kubeletVersion: 'v1.20.2', kubeProxyVersion: 'v1.20.2', containerRuntimeVersion: 'fake://1.0', operatingSystem: 'linux',
                architecture: 'amd64', osImage: 'fake', kernelVersion: 'fake', machineID: n.name, systemUUID: n.name, bootID: n.name,
              },
            },
        },
        'merge',
        'status',
      );
    }
  }

  async removeNodes(names: string[]): Promise<void> {
    for (const name of names) {
      this.nodes.delete(name);
      await this.kube.delete({ apiVersion: 'v1', kind: 'Node', metadata: { name } }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
    }
  }

  /** Removes every node this kubelet registered and still has: a test file leaves none behind for the next one's pods to be scheduled to. */
  removeAllNodes(): Promise<void> {
    return this.removeNodes([...this.nodes.keys()]);
  }

  start(): void {
    if (this.timer) return;
    this.informer?.start();
    const loop = () => {
      this.ticking = this.tick().catch((e: unknown) => void this.errors.push(e));
      void this.ticking.then(() => {
        if (this.timer) this.timer = setTimeout(loop, this.pollMs);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    const t = this.timer;
    this.timer = undefined;
    if (t) clearTimeout(t);
    await this.ticking;
    await this.informer?.stop();
    if (this.informer) this.errors.push(...this.informer.errors.splice(0).filter((e) => !(e instanceof KubeApiError && e.status === 410)));
  }

  /**
   * From now on, new pods, in-place restarts and terminations take the model's time (its draws
   * keyed by pod, so a run repeats). Benchmarks only: tests keep the instant kubelet. `undefined`: instant again.
   */
  useModel(model: KubeletModel | undefined): void {
    this.model = model;
  }

  /** Readiness probe result for every container of the pod. */
  setReady(namespace: string, name: string, ready: boolean): void {
    this.override(namespace, name).notReady = !ready;
  }

  /**
   * After an in-place image change, a container reports not ready for this long, as a readiness
   * probe with an initial delay would make it (default 0: ready at once).
   */
  setRestartReadyDelay(ms: number): void {
    this.restartReadyDelayMs = ms;
  }

  /**
   * The runtime reports `image` as a real CRI may: another status image (containerd names a
   * digest by the first tag it knows for it) or another imageID (a bare config digest `sha256:…`,
   * or the imageID of another tag of the same image). The kubelet still restarts a container when
   * its spec image changes.
   */
  reportImage(image: string, report: { image?: string; imageID?: string }): void {
    this.imageReports.set(image, report);
  }

  /** Pulls of `image` fail (until `allowPull`): its containers wait in ErrImagePull, then ImagePullBackOff, with no imageID. */
  failPull(image: string): void {
    this.failingPulls.add(image);
  }

  allowPull(image: string): void {
    this.failingPulls.delete(image);
  }

  /** Containers whose command is `command` (e.g. a static `true`) exit 0 as soon as they start. */
  exitOnStart(command: string): void {
    this.exitingCommands.add(command);
  }

  /**
   * The container exits with `exitCode` and stays down until `recoverContainer`. For an ephemeral
   * container (which never restarts) this is how it ends, 0 included.
   */
  failContainer(namespace: string, name: string, container: string, exitCode = 1): void {
    const o = this.override(namespace, name);
    o.failed = { ...o.failed, [container]: exitCode };
  }

  recoverContainer(namespace: string, name: string, container: string): void {
    const o = this.override(namespace, name);
    if (o.failed) delete o.failed[container];
  }

  /** All containers exit with `exitCode` (0 → Succeeded, else Failed), as a Job's pod does. */
  completePod(namespace: string, name: string, exitCode = 0): void {
    this.override(namespace, name).completed = exitCode;
  }

  private override(namespace: string, name: string): PodOverride {
    const key = `${namespace}/${name}`;
    let o = this.overrides.get(key);
    if (!o) this.overrides.set(key, (o = {}));
    return o;
  }

  /** One pass over every pod bound to our nodes. Exposed so tests can force a step. */
  async tick(): Promise<void> {
    if (this.nodes.size === 0) return;
    const pods = await this.boundPods();
    if (!pods) return;
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (!node || !this.nodes.has(node)) continue;
      try {
        await this.syncPod(pod);
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e)) this.errors.push(e);
      }
    }
  }

  /** The pods bound to some node, from the pod source; undefined while the informer has not listed yet. */
  private async boundPods(): Promise<(V1Pod & KubeObject)[] | undefined> {
    if (this.informer) return this.informer.synced ? this.informer.current() : undefined;
    if (this.opts.podSource !== 'watch-cache') return (await this.kube.list<V1Pod & KubeObject>('v1', 'Pod', { fieldSelector: 'spec.nodeName!=' })).items;
    const page = await this.kube.request<{ items: (V1Pod & KubeObject)[] }>('GET', '/api/v1/pods', { query: { fieldSelector: 'spec.nodeName!=', resourceVersion: '0' } });
    return page.items.map((p) => ({ ...p, apiVersion: 'v1', kind: 'Pod' }));
  }

  private async syncPod(pod: V1Pod & KubeObject): Promise<void> {
    const namespace = pod.metadata?.namespace ?? 'default';
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp) {
      if (this.model) {
        const podKey = `${namespace}/${name}/${pod.metadata.uid ?? ''}`;
        let gone = this.goneAt.get(podKey);
        if (gone === undefined) this.goneAt.set(podKey, (gone = this.model.terminate(podKey, Date.now())));
        if (Date.now() < gone) return;
        this.goneAt.delete(podKey);
        this.podStarts.delete(podKey);
      }
      await this.kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, { gracePeriodSeconds: 0 });
      this.overrides.delete(`${namespace}/${name}`);
      return;
    }
    const status = this.desiredStatus(pod);
    if (canonicalStatus(status) === canonicalStatus(pod.status ?? {})) return;
    await this.kube.replace({ ...pod, apiVersion: 'v1', kind: 'Pod', status }, 'status');
  }

  private desiredStatus(pod: V1Pod): NonNullable<V1Pod['status']> {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    const o = this.overrides.get(key) ?? {};
    const prev = pod.status ?? {};
    const now = new Date();
    const startedAt = prev.startTime ?? now;
    const containers = pod.spec?.containers ?? [];
    const completed = o.completed;
    const creating = this.modelCreating(pod, key, now.getTime());
    if (creating) return creating;
    const statuses: V1ContainerStatus[] = containers.map((c) => {
      const before = prev.containerStatuses?.find((s) => s.name === c.name);
      const image = c.image ?? '';
      if (this.failingPulls.has(image) && completed === undefined) {
        const backOff = before?.state?.waiting?.reason === 'ErrImagePull' || before?.state?.waiting?.reason === 'ImagePullBackOff';
        const waiting = backOff
          ? { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` }
          : { reason: 'ErrImagePull', message: `failed to pull and unpack image "${image}": fake kubelet refuses this pull` };
        return { name: c.name, image, imageID: '', ready: false, started: false, restartCount: before?.restartCount ?? 0, state: { waiting } };
      }
      if (c.command?.[0] !== undefined && this.exitingCommands.has(c.command[0]) && completed === undefined) {
        const at = before?.state?.terminated?.finishedAt ?? now;
        return {
          name: c.name, image, imageID: imageIdOf(image), ready: false, started: false, restartCount: before?.restartCount ?? 0,
          containerID: `fake://${createHash('sha256').update(`${key}/${c.name}/0`).digest('hex').slice(0, 32)}`,
          state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: before?.state?.terminated?.startedAt ?? now, finishedAt: at } },
        };
      }
      let restartCount = before?.restartCount ?? 0;
      let lastState = before?.lastState;
      const report = this.imageReports.get(image) ?? {};
      const ranFrom = (before?.containerID && this.startedFrom.get(before.containerID)) || before?.image;
      // An in-place image change: the kubelet kills the container and starts the new image.
      if (before && ranFrom !== image) {
        const restarting = this.modelRestarting(pod, `${key}/${c.name}`, image, restartCount + 1, now.getTime());
        if (restarting) return { ...before, ready: false, started: false, state: { waiting: { reason: 'ContainerCreating' } } };
        this.restartedAt.set(`${key}/${c.name}`, now.getTime());
        restartCount += 1;
        lastState = { terminated: { exitCode: 0, reason: 'Completed', startedAt: before.state?.running?.startedAt ?? startedAt, finishedAt: now } };
      }
      const failedCode = o.failed?.[c.name];
      const wasFailed = Boolean(before?.state?.terminated) && completed === undefined;
      if (failedCode === undefined && wasFailed && before) restartCount += 1; // recovered: a restart
      if (failedCode !== undefined && !before?.state?.terminated) {
        lastState = before?.state?.running ? { terminated: { exitCode: failedCode, reason: 'Error', startedAt: before.state.running.startedAt ?? startedAt, finishedAt: now } } : lastState;
      }
      const running = failedCode === undefined && completed === undefined;
      const keepStart = before && ranFrom === image && before.state?.running && !wasFailed;
      const state = running
        ? { running: { startedAt: keepStart ? before.state!.running!.startedAt : now } }
        : { terminated: { exitCode: completed ?? failedCode ?? 0, reason: (completed ?? failedCode) === 0 ? 'Completed' : 'Error', startedAt, finishedAt: before?.state?.terminated?.finishedAt ?? now } };
      const containerID = `fake://${createHash('sha256').update(`${key}/${c.name}/${restartCount}`).digest('hex').slice(0, 32)}`;
      this.startedFrom.set(containerID, image);
      return {
        name: c.name,
        image: report.image ?? image,
        imageID: report.imageID ?? imageIdOf(image),
        containerID,
        ready: running && !o.notReady && !this.warmingUp(`${key}/${c.name}`, now.getTime()),
        started: running,
        restartCount,
        state,
        ...(lastState ? { lastState } : {}),
      };
    });
    const initStatuses: V1ContainerStatus[] = (pod.spec?.initContainers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: imageIdOf(c.image ?? ''),
      ready: true,
      restartCount: 0,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt, finishedAt: startedAt } },
    }));
    const ephemeralStatuses = this.ephemeralStatuses(pod, key, o, now);
    const containersReady = statuses.every((s) => s.ready);
    const gates = (pod.spec?.readinessGates ?? []).map((g) => g.conditionType);
    const foreign = (prev.conditions ?? []).filter((c) => !KUBELET_OWNED_CONDITIONS.includes(c.type));
    const gatesOk = gates.every((g) => foreign.some((c) => c.type === g && c.status === 'True'));
    const cond = (type: string, ok: boolean, reason?: string): V1PodCondition => {
      const before = prev.conditions?.find((c) => c.type === type);
      const status = ok ? 'True' : 'False';
      return {
        type,
        status,
        lastProbeTime: undefined,
        lastTransitionTime: before && before.status === status ? before.lastTransitionTime : now,
        ...(reason && !ok ? { reason } : {}),
      } as V1PodCondition;
    };
    // A container being created again (an in-place restart under a model) leaves the pod Running.
    const pullFailed = statuses.some((s) => s.state?.waiting && s.state.waiting.reason !== 'ContainerCreating');
    const allExited = statuses.length > 0 && statuses.every((s) => s.state?.terminated?.exitCode === 0) && statuses.every((s) => this.exitingCommands.has(containers.find((c) => c.name === s.name)?.command?.[0] ?? ''));
    const phase = completed !== undefined ? (completed === 0 ? 'Succeeded' : 'Failed') : pullFailed ? 'Pending' : allExited ? 'Succeeded' : 'Running';
    const ip = this.podIp(key);
    return {
      phase,
      conditions: [
        cond('Initialized', true),
        cond('Ready', containersReady && gatesOk && phase === 'Running', gatesOk ? 'ContainersNotReady' : 'ReadinessGatesNotReady'),
        cond('ContainersReady', containersReady && phase === 'Running', 'ContainersNotReady'),
        cond('PodScheduled', true),
        ...foreign,
      ],
      hostIP: `192.0.2.${[...this.nodes.keys()].indexOf(pod.spec?.nodeName ?? '') + 1}`,
      podIP: ip,
      podIPs: [{ ip }],
      startTime: startedAt,
      containerStatuses: statuses,
      ...(initStatuses.length ? { initContainerStatuses: initStatuses } : {}),
      ...(ephemeralStatuses.length ? { ephemeralContainerStatuses: ephemeralStatuses } : {}),
      qosClass: prev.qosClass ?? 'BestEffort',
    };
  }

  /**
   * Ephemeral containers: running once reported, then ended for good — with the exit code
   * `failContainer` gives it, or 0 on the next pass when its command is one of `exitOnStart`'s.
   */
  private ephemeralStatuses(pod: V1Pod, key: string, o: PodOverride, now: Date): V1ContainerStatus[] {
    return (pod.spec?.ephemeralContainers ?? []).map((c) => {
      const before = pod.status?.ephemeralContainerStatuses?.find((s) => s.name === c.name);
      const image = c.image ?? '';
      const containerID = `fake://${createHash('sha256').update(`${key}/ephemeral/${c.name}`).digest('hex').slice(0, 32)}`;
      const base = { name: c.name, image, imageID: imageIdOf(image), containerID, ready: false, restartCount: 0 };
      if (before?.state?.terminated) return { ...base, state: { terminated: before.state.terminated } };
      const startedAt = before?.state?.running?.startedAt ?? now;
      const exitCode = o.failed?.[c.name] ?? (before?.state?.running && this.exitingCommands.has(c.command?.[0] ?? '') ? 0 : undefined);
      if (exitCode === undefined) return { ...base, state: { running: { startedAt } } };
      return { ...base, state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt, finishedAt: now } } };
    });
  }

  /**
   * With a model, a pod the kubelet has not yet started: its start drawn once (volumes, sandbox,
   * pulls, start, PLEG), and until then the Pending status of a pod whose containers are being
   * created. Undefined once it runs (or without a model).
   */
  private modelCreating(pod: V1Pod, key: string, now: number): NonNullable<V1Pod['status']> | undefined {
    if (!this.model) return undefined;
    const podKey = `${key}/${pod.metadata?.uid ?? ''}`;
    let start = this.podStarts.get(podKey);
    if (!start) {
      const containers = pod.spec?.containers ?? [];
      start = this.model.newPod(pod.spec?.nodeName ?? '', containers.map((c) => c.image ?? ''), podKey, now);
      this.podStarts.set(podKey, start);
      for (const c of containers) this.readyAt.set(`${key}/${c.name}`, start.readyAt);
    }
    if (now >= start.runningAt) return undefined;
    const at = pod.status?.startTime ?? new Date(now);
    const cond = (type: string, status: boolean, reason?: string): V1PodCondition => ({ type, status: status ? 'True' : 'False', lastTransitionTime: at, ...(reason ? { reason } : {}) }) as V1PodCondition;
    return {
      phase: 'Pending',
      conditions: [cond('Initialized', true), cond('Ready', false, 'ContainersNotReady'), cond('ContainersReady', false, 'ContainersNotReady'), cond('PodScheduled', true)],
      hostIP: `192.0.2.${[...this.nodes.keys()].indexOf(pod.spec?.nodeName ?? '') + 1}`,
      startTime: at,
      containerStatuses: (pod.spec?.containers ?? []).map((c) => ({ name: c.name, image: c.image ?? '', imageID: '', ready: false, started: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } })),
      qosClass: pod.status?.qosClass ?? 'BestEffort',
    };
  }

  /** With a model, whether an in-place restart to `image` is still under way (its timeline drawn once). */
  private modelRestarting(pod: V1Pod, container: string, image: string, restart: number, now: number): boolean {
    if (!this.model) return false;
    let r = this.restarts.get(container);
    if (!r || r.image !== image) {
      r = { image, ...this.model.restart(pod.spec?.nodeName ?? '', [image], `${container}/${restart}`, now) };
      this.restarts.set(container, r);
      this.readyAt.set(container, r.readyAt);
    }
    return now < r.runningAt;
  }

  private warmingUp(container: string, now: number): boolean {
    const modelReady = this.model ? this.readyAt.get(container) : undefined;
    if (modelReady !== undefined && now < modelReady) return true;
    const at = this.restartedAt.get(container);
    return at !== undefined && now - at < this.restartReadyDelayMs;
  }

  private podIp(key: string): string {
    let ip = this.ips.get(key);
    if (!ip) {
      this.ipCounter += 1;
      ip = `10.244.${Math.floor(this.ipCounter / 250)}.${(this.ipCounter % 250) + 1}`;
      this.ips.set(key, ip);
    }
    return ip;
  }
}

/**
 * A status as canonical text, to write only what changed: keys sorted, null and undefined dropped
 * (`lastProbeTime: null` against absent), timestamps to the second whether Date or string, and
 * lists of typed or named items (conditions, container statuses) ordered by type/name. Comparing
 * raw JSON text made every pod differ on every pass (key order), so each pass re-PUT every status.
 */
export function canonicalStatus(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (v instanceof Date) return v.toISOString().replace(/\.\d+Z$/, 'Z');
    if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v)) return v.replace(/\.\d+Z$/, 'Z');
    if (Array.isArray(v)) {
      const items = v.map(norm);
      const key = (x: unknown) => (x && typeof x === 'object' ? String((x as Record<string, unknown>).type ?? (x as Record<string, unknown>).name ?? '') : '');
      return items.every((x) => key(x) !== '') ? [...items].sort((a, b) => key(a).localeCompare(key(b))) : items;
    }
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== null && x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, norm(x)]));
    }
    return v;
  };
  return JSON.stringify(norm(value));
}
