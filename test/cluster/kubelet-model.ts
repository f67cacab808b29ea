// What a pod costs a real kubelet, as seeded stages of delay plus jitter (the shape of KWOK's stages:
// kubernetes-sigs/kwok, kustomize/stage/pod/general — each stage waits `durationMilliseconds` plus up
// to `jitterDurationMilliseconds`). The fake kubelet (fake-kubelet.ts) plays it when a bench opts in;
// tests keep the instant kubelet. Every draw is keyed (seed, stage, pod, restart), so a run repeats
// and a replay of the same pods (the kubelet-bound ideal) draws the same durations.
//
// A new pod: volumes → sandbox and CNI → image pulls (per node cache, one pull at a time, as
// serializeImagePulls=true does) → container start → PLEG notices (Running) → app start and the
// first readiness success (Ready). An in-place restart: the container's exit (plus preStop), then
// pull → start → PLEG → app/readiness; no sandbox, volumes or IP. Termination: exit plus sandbox
// teardown. Times are in seconds inside the model and milliseconds at its interface.

/** Kubelet-visible timings of one pod event, in ms on the caller's clock. */
export type PodTimeline = { runningAt: number; readyAt: number };

export type AppProfile = 'light' | 'heavy';
export type ModelOptions = {
  seed: number;
  /** App start to first readiness success: light 2 s, heavy 10 s (medians). */
  app: AppProfile;
  /** Cold ENI: sandbox setup waits 0–10 s more for an interface (cilium#48392 on AWS ENI). */
  coldEni: boolean;
  /** Images pre-pulled: every node's cache holds every image from the start. */
  prePulled: boolean;
  /** Image size for the cold pull, MB (default 70). */
  imageMb?: number;
  /** preStop hook, seconds (default 0). */
  preStopS?: number;
};

const SANDBOX_MEDIAN_S = 0.5;
const SANDBOX_P99_S = 2.5;
const Z99 = 2.3263478740408408;
/** Lognormal σ from the median and p99: ln(p99/median)/z₀.₉₉ (≈ 0.692). */
export const SANDBOX_SIGMA = Math.log(SANDBOX_P99_S / SANDBOX_MEDIAN_S) / Z99;
/** Pull throughput: about 7 s for about 70 MB. */
const PULL_MB_PER_S = 10;
const APP_MEDIAN_S: Record<AppProfile, number> = { light: 2, heavy: 10 };
/**
 * Calibration (not a published figure): the app-start term's spread and the readiness probe's
 * phase are fitted so that a light pod with its image cached reaches Ready at p50 ≈ 4.0 s and
 * p99 ≈ 6.8 s — SIG Scalability's measured 2–2.5 s of infrastructure (kubernetes#42000,
 * kubernetes#86217: pod startup SLO, p99 ≤ 5 s without pulls) plus the app's 2 s.
 */
export const APP_SIGMA = 0.32;
const PROBE_PHASE_S = 0.5;

type Draw = (stage: string) => number;

/** Each stage: its name, what it is drawn from, the source, and the draw (seconds). */
export type StageSpec = { name: string; law: string; source: string; sample(u: Draw, o: Required<ModelOptions>): number };

const uniform = (lo: number, hi: number) => (u: number) => lo + (hi - lo) * u;
/** Standard normal from two uniforms (Box–Muller). */
function normal(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(Math.max(u1, Number.MIN_VALUE))) * Math.cos(2 * Math.PI * u2);
}
const lognormal = (median: number, sigma: number, draw: Draw, stage: string) => median * Math.exp(sigma * normal(draw(`${stage}#1`), draw(`${stage}#2`)));

export const STAGES: Record<string, StageSpec> = {
  volumes: { name: 'volume mounts', law: 'uniform 0.1–0.6 s', source: "kubelet volume manager's 300 ms poll (kwok pod-create stage's delay+jitter shape)", sample: (d) => uniform(0.1, 0.6)(d('volumes')) },
  sandbox: {
    name: 'sandbox + CNI', law: `lognormal median ${SANDBOX_MEDIAN_S} s, p99 ${SANDBOX_P99_S} s (σ ${SANDBOX_SIGMA.toFixed(3)}); cold ENI +uniform 0–10 s`, source: 'containerd#6111, cilium#48392',
    sample: (d, o) => lognormal(SANDBOX_MEDIAN_S, SANDBOX_SIGMA, d, 'sandbox') + (o.coldEni ? uniform(0, 10)(d('eni')) : 0),
  },
  pull: { name: 'image pull (cold)', law: `size/${PULL_MB_PER_S} MB/s (70 MB ≈ 7 s), ±10%; cached 0; one pull at a time per node`, source: 'kubelet serializeImagePulls=true (default)', sample: (d, o) => (o.imageMb / PULL_MB_PER_S) * uniform(0.9, 1.1)(d('pull')) },
  start: { name: 'container start', law: '0.3 s', source: 'CRI CreateContainer+StartContainer', sample: () => 0.3 },
  pleg: { name: 'PLEG detection', law: 'uniform 0–1 s', source: "kubelet PLEG's 1 s relist", sample: (d) => uniform(0, 1)(d('pleg')) },
  app: {
    name: 'app start → first readiness success', law: `lognormal median light 2 s / heavy 10 s, σ ${APP_SIGMA}; + probe phase uniform 0–${PROBE_PHASE_S} s`, source: 'profile; σ and probe phase: calibration (kubernetes#42000, kubernetes#86217)',
    sample: (d, o) => lognormal(APP_MEDIAN_S[o.app], APP_SIGMA, d, 'app') + uniform(0, PROBE_PHASE_S)(d('probe')),
  },
  exit: { name: 'container exit', law: '0.5 s + preStop', source: 'SIGTERM to exit; preStop runs first', sample: (_d, o) => 0.5 + o.preStopS },
  teardown: { name: 'sandbox teardown', law: '0.3 s', source: 'CRI StopPodSandbox+RemovePodSandbox', sample: () => 0.3 },
};

/** A uniform in [0, 1) from a string: FNV-1a then a murmur-style finaliser. */
export function hashUniform(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

export class KubeletModel {
  readonly options: Required<ModelOptions>;
  /** node → image → when it is in the cache (ms; may be in the future while pulling). */
  private readonly caches = new Map<string, Map<string, number>>();
  /** node → when its one pull slot is free (ms). */
  private readonly pullFree = new Map<string, number>();

  constructor(options: ModelOptions) {
    this.options = { imageMb: 70, preStopS: 0, ...options };
  }

  /** Seconds a stage takes for one pod event (`key`: pod and restart), the same every replay. */
  sample(stage: keyof typeof STAGES, key: string): number {
    const spec = STAGES[stage];
    if (!spec) throw new Error(`no kubelet model stage ${stage}`);
    return spec.sample((s) => hashUniform(`${this.options.seed}/${key}/${s}`), this.options);
  }

  /** A new pod bound to `node` at `at` ms. */
  newPod(node: string, images: readonly string[], key: string, at: number): PodTimeline {
    const sandboxed = at + 1000 * (this.sample('volumes', key) + this.sample('sandbox', key));
    return this.startContainers(node, images, key, sandboxed);
  }

  /** An in-place image change seen at `at` ms: the old container exits, the new one starts. */
  restart(node: string, images: readonly string[], key: string, at: number): PodTimeline {
    return this.startContainers(node, images, key, at + 1000 * this.sample('exit', key));
  }

  /** When a pod whose deletion is seen at `at` ms is gone. */
  terminate(key: string, at: number): number {
    return at + 1000 * (this.sample('exit', key) + this.sample('teardown', key));
  }

  /** Images are pulled one at a time per node; a cached (or pre-pulled) image costs nothing. */
  private startContainers(node: string, images: readonly string[], key: string, from: number): PodTimeline {
    let t = from;
    for (const image of images) t = Math.max(t, this.pulled(node, image, key, t));
    const runningAt = t + 1000 * (this.sample('start', key) + this.sample('pleg', key));
    return { runningAt, readyAt: runningAt + 1000 * this.sample('app', key) };
  }

  private pulled(node: string, image: string, key: string, at: number): number {
    if (this.options.prePulled) return at;
    let cache = this.caches.get(node);
    if (!cache) this.caches.set(node, (cache = new Map()));
    const inCache = cache.get(image);
    if (inCache !== undefined) return inCache;
    const start = Math.max(at, this.pullFree.get(node) ?? 0);
    const done = start + 1000 * this.sample('pull', `${key}/${image}`);
    this.pullFree.set(node, done);
    cache.set(image, done);
    return done;
  }

  /** Marks `image` cached on `node` (a pre-download: ImagePullJob, or a DaemonSet's earlier pod). */
  cache(node: string, image: string, at = 0): void {
    let cache = this.caches.get(node);
    if (!cache) this.caches.set(node, (cache = new Map()));
    if (!cache.has(image)) cache.set(image, at);
  }

  /** The model as text, printed with every result. */
  describe(): string {
    const o = this.options;
    const profile = `${o.app}${o.coldEni ? ', cold ENI' : ''}${o.prePulled ? ', images pre-pulled' : `, cold images (${o.imageMb} MB)`}${o.preStopS ? `, preStop ${o.preStopS} s` : ''}`;
    return [
      `kubelet model (seed ${o.seed}; ${profile}):`,
      ...Object.values(STAGES).map((s) => `  ${s.name.padEnd(36)} ${s.law}  [${s.source}]`),
      '  new pod = volumes + sandbox + pulls + start + PLEG + app; in place = exit + pulls + start + PLEG + app; termination = exit + teardown',
    ].join('\n');
  }
}
