// The fake kubelet's pods as a kubelet's informer keeps them (benchmarks): one LIST at
// resourceVersion 0 (the API server's watch cache), then a WATCH with the same field selector
// from the list's version, resumed from the last version seen, and a fresh LIST when the server
// says that version is gone (410 Gone, as an ERROR event or the watch's status). Each pass then
// works on the pods in memory: the API server filters the cluster's pods once per change, not
// once per pass.
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeHttp, KubeObject, WatchEvent } from '../../src/kube/http.js';
import { KubeApiError } from '../../src/kube/errors.js';

type Pod = V1Pod & KubeObject;

/** A watch is re-opened (from where it was) at least this often, as a kubelet's reflector does. */
const WATCH_SECONDS = 300;
/** The least time between two watches when one fails or ends at once. */
const RETRY_MS = 500;

export class PodInformer {
  private readonly pods = new Map<string, Pod>();
  private resourceVersion: string | undefined;
  private abort: AbortController | undefined;
  private running: Promise<void> | undefined;
  private listed = false;
  /** LISTs made so far (the first, then one per 410 Gone or failed watch). */
  lists = 0;
  errors: unknown[] = [];

  constructor(private readonly kube: KubeHttp, private readonly fieldSelector = 'spec.nodeName!=') {}

  /** Starts listing and watching (again after `stop`, from the last version seen). */
  start(): void {
    if (this.running) return;
    const abort = (this.abort = new AbortController());
    this.running = this.run(abort.signal).finally(() => (this.running = undefined));
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.running;
  }

  /** Whether the first LIST has arrived (before it, `current()` is empty for want of news, not of pods). */
  get synced(): boolean {
    return this.listed;
  }

  /** The pods as last seen, in namespace/name order. */
  current(): Pod[] {
    return [...this.pods.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const started = Date.now();
      try {
        if (this.resourceVersion === undefined) await this.list();
        await this.kube.watch('v1', 'Pod', { resourceVersion: this.resourceVersion!, timeoutSeconds: WATCH_SECONDS, fieldSelector: this.fieldSelector, signal }, (e) => this.apply(e));
      } catch (e) {
        if (signal.aborted) return;
        // A version the server no longer has: list again. Anything else: watch again from where we were.
        if (e instanceof KubeApiError && e.status === 410) this.resourceVersion = undefined;
        this.errors.push(e);
      }
      const elapsed = Date.now() - started;
      if (elapsed < RETRY_MS && !signal.aborted) await new Promise((r) => setTimeout(r, RETRY_MS - elapsed));
    }
  }

  private async list(): Promise<void> {
    const page = await this.kube.request<{ metadata: { resourceVersion: string }; items: Pod[] }>('GET', '/api/v1/pods', {
      query: { fieldSelector: this.fieldSelector, resourceVersion: '0' },
    });
    this.lists += 1;
    this.pods.clear();
    for (const p of page.items) this.pods.set(keyOf(p), { ...p, apiVersion: 'v1', kind: 'Pod' });
    this.resourceVersion = page.metadata.resourceVersion;
    this.listed = true;
  }

  private apply(e: WatchEvent): void {
    // ERROR: 410 Gone (the version fell out of the watch cache's window); the watch ends, and we list again.
    if (e.type === 'ERROR') return void (this.resourceVersion = undefined);
    this.resourceVersion = e.object.metadata?.resourceVersion ?? this.resourceVersion;
    if (e.type === 'BOOKMARK') return;
    const pod = e.object as Pod;
    if (e.type === 'DELETED') this.pods.delete(keyOf(pod));
    else this.pods.set(keyOf(pod), pod);
  }
}

const keyOf = (p: Pod) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
