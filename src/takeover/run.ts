// `kruise-serverless takeover` and `handback`: the I/O around the pure steps (preflight.ts,
// handback-record.ts, seeds.ts, pod-writes.ts). Takeover goes in the order that keeps pods safe:
// refuse while OpenKruise's manager runs; remove its webhooks and CRD conversion webhooks, saved
// for handback; apply our CRDs; seed the edge's ledgers from the PUB and WorkloadSpread status
// OpenKruise wrote (and stop if the edge cannot take them); run every reconciler once in dry-run
// and stop if any would write a pod; only then install our webhooks. With `dryRun` every step is
// printed and nothing is changed.
import type { KubeHttp, KubeObject } from '../kube/http.js';
import { isNotFound } from '../kube/errors.js';
import { applyClusterSide } from '../install/apply.js';
import { MUTATING_CONFIG, VALIDATING_CONFIG } from '../install/render.js';
import { runReconciler } from '../reconcile/runner.js';
import type { Reconciler, RunReport } from '../reconcile/types.js';
import { ADMISSION_API, HANDBACK_CONFIGMAP, OPENKRUISE_WEBHOOKS, handbackRecord, readRecord, recordConfigMap } from './handback-record.js';
import { planLines, plannedPodWrites } from './pod-writes.js';
import { checkKruiseStopped, KRUISE_DAEMON, KRUISE_MANAGER, KRUISE_NAMESPACE, type DaemonSetSeen, type Scaled } from './preflight.js';
import { seedPlan } from './seeds.js';
import { sendSeeds } from './seed-ledgers.js';
import { TakeoverRefused } from './refused.js';
import type { Ledgers } from '../edge-state/ledger.js';

export { TakeoverRefused };

export type TakeoverOptions = {
  dryRun: boolean;
  force: boolean;
  /** The cluster side `install` would apply (CRDs, namespace, RBAC, webhook configurations). */
  clusterSide: KubeObject[];
  reconcilers: readonly Reconciler[];
  /** The edge's ledgers (the sync API) that step 4 seeds; needed unless `dryRun`, when there is something to seed. */
  ledgers?: Ledgers;
  out: (line: string) => void;
};

const CRD_API = 'apiextensions.k8s.io/v1';

async function getIfExists<T extends KubeObject>(kube: KubeHttp, apiVersion: string, kind: string, name: string, namespace?: string): Promise<T | undefined> {
  try {
    return await kube.get<T>(apiVersion, kind, name, namespace);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function listIfServed(kube: KubeHttp, apiVersion: string, kind: string, opts: { managedFields?: 'keep' } = {}): Promise<KubeObject[]> {
  try {
    return (await kube.list<KubeObject>(apiVersion, kind, opts)).items;
  } catch (e) {
    if (isNotFound(e) || /not served|no resource|unknown kind/i.test((e as Error).message)) return [];
    throw e;
  }
}

const isWebhookConfig = (o: KubeObject) => o.kind === 'MutatingWebhookConfiguration' || o.kind === 'ValidatingWebhookConfiguration';

export async function takeover(kube: KubeHttp, opts: TakeoverOptions): Promise<void> {
  const { out, dryRun } = opts;
  const would = dryRun ? 'would ' : '';

  out('1. OpenKruise stopped?');
  const manager = await getIfExists<KubeObject & Scaled>(kube, 'apps/v1', 'Deployment', KRUISE_MANAGER, KRUISE_NAMESPACE);
  const daemon = await getIfExists<KubeObject & DaemonSetSeen>(kube, 'apps/v1', 'DaemonSet', KRUISE_DAEMON, KRUISE_NAMESPACE);
  const pre = checkKruiseStopped(manager, daemon);
  for (const n of pre.notes) out(`  ${n}`);
  for (const p of pre.problems) out(`  REFUSED: ${p}`);
  if (!pre.ok && !dryRun) throw new TakeoverRefused(pre.problems.join('; '));

  out(`2. OpenKruise's webhooks and conversion webhooks: ${would}remove, saved in ConfigMap ${KRUISE_NAMESPACE}/${HANDBACK_CONFIGMAP}`);
  const webhooks = (await Promise.all(OPENKRUISE_WEBHOOKS.map((w) => getIfExists(kube, ADMISSION_API, w.kind, w.name)))).filter((w): w is KubeObject => Boolean(w));
  const crds = await listIfServed(kube, CRD_API, 'CustomResourceDefinition');
  const saved = await getIfExists(kube, 'v1', 'ConfigMap', HANDBACK_CONFIGMAP, KRUISE_NAMESPACE);
  // A second run keeps the first record: what it removed is gone from the cluster by now.
  const record = saved ? readRecord(saved) : handbackRecord(webhooks, crds);
  for (const w of webhooks) out(`  ${would}delete ${w.kind} ${w.metadata?.name}`);
  for (const name of Object.keys(handbackRecord(webhooks, crds).conversions)) out(`  ${would}set CustomResourceDefinition ${name} conversion to None`);
  if (!dryRun) {
    if (!saved) await kube.create(recordConfigMap(record));
    for (const w of webhooks) await kube.delete(w).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    for (const name of Object.keys(handbackRecord(webhooks, crds).conversions)) {
      await kube.patch({ apiVersion: CRD_API, kind: 'CustomResourceDefinition', metadata: { name } }, { spec: { conversion: { strategy: 'None', webhook: null } } });
    }
  }

  const ours = opts.clusterSide;
  const crdsAndRest = ours.filter((o) => !isWebhookConfig(o));
  out(`3. our CRDs, namespace and RBAC: ${would}apply ${crdsAndRest.length} objects (every stored version kept)`);
  if (!dryRun) await applyClusterSide(kube, crdsAndRest, { log: (m) => out(`  ${m}`), leaveWebhookConfigs: true });

  out(`4. ledgers: the edge's budgets ${would}take over what OpenKruise recorded in status`);
  // managedFields: who wrote a PUB's status (ours only adds to a ledger the edge already holds).
  const pubs = await listIfServed(kube, 'policy.kruise.io/v1alpha1', 'PodUnavailableBudget', { managedFields: 'keep' });
  const spreads = await listIfServed(kube, 'apps.kruise.io/v1alpha1', 'WorkloadSpread');
  const seeds = seedPlan(pubs, spreads);
  for (const l of seeds.lines.length ? seeds.lines : ['  no PodUnavailableBudget or WorkloadSpread']) out(l);
  if (!dryRun) await sendSeeds(opts.ledgers, seeds.seeds, out);

  out('5. every reconciler once, in dry-run:');
  const reports: RunReport[] = [];
  for (const r of opts.reconcilers) reports.push(await runReconciler(kube, r, { dryRun: true, identity: 'kruise-serverless-takeover' }));
  for (const l of planLines(reports)) out(l);
  const podWrites = plannedPodWrites(reports);
  if (podWrites.length) {
    for (const w of podWrites) out(`  POD WRITE: ${w.reconciler} would ${w.op} pod ${w.pod}: ${w.reason}`);
    if (!opts.force && !dryRun) throw new TakeoverRefused(`${podWrites.length} pod write(s) planned (listed above): nothing installed; look into them, or pass --force to go on`);
  } else out('  no pod write, no pod delete');

  const hooks = ours.filter(isWebhookConfig);
  out(`6. our webhooks: ${would}install ${hooks.map((h) => h.metadata?.name).join(', ')}`);
  if (!dryRun) await applyClusterSide(kube, ours, { log: (m) => out(`  ${m}`) });
  out(dryRun ? 'dry run: nothing was changed' : 'takeover done: run `kruise-serverless reconcile` (or your deployment of it) now');
}

export async function handback(kube: KubeHttp, opts: { dryRun: boolean; out: (line: string) => void }): Promise<void> {
  const { out, dryRun } = opts;
  const would = dryRun ? 'would ' : '';
  const record = readRecord(await getIfExists(kube, 'v1', 'ConfigMap', HANDBACK_CONFIGMAP, KRUISE_NAMESPACE));
  for (const [kind, name] of [['MutatingWebhookConfiguration', MUTATING_CONFIG], ['ValidatingWebhookConfiguration', VALIDATING_CONFIG]] as const) {
    out(`${would}delete ${kind} ${name}`);
    if (!dryRun) await kube.delete({ apiVersion: ADMISSION_API, kind, metadata: { name } }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  }
  for (const [name, conversion] of Object.entries(record.conversions)) {
    out(`${would}restore the conversion webhook of CustomResourceDefinition ${name}`);
    if (!dryRun) await kube.patch({ apiVersion: CRD_API, kind: 'CustomResourceDefinition', metadata: { name } }, { spec: { conversion } });
  }
  for (const w of record.webhookConfigurations) {
    out(`${would}re-create ${w.kind} ${w.metadata?.name}`);
    if (!dryRun) await kube.create(w).catch((e: unknown) => { if (!/already exists/i.test((e as Error).message)) throw e; });
  }
  out(`${would}delete ConfigMap ${KRUISE_NAMESPACE}/${HANDBACK_CONFIGMAP}`);
  if (!dryRun) await kube.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: HANDBACK_CONFIGMAP, namespace: KRUISE_NAMESPACE } });
  out(dryRun ? 'dry run: nothing was changed' : `handed back: scale ${KRUISE_NAMESPACE}/${KRUISE_MANAGER} up again, and stop kruise-serverless reconcile`);
}
