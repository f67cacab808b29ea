// Image pre-download for in-place updates (OpenKruise's PreDownloadImageForInPlaceUpdate gate,
// cloneset_predownload_image.go): while the update revision differs from the current one, and at
// least `image-predownload-min-updated-ready-pods` updated pods are ready, one ImagePullJob per
// changed container image, named `<update revision>-<container>`, owned by the CloneSet, pulls it
// on the nodes of the pods not yet at the update revision. The revision is then labelled
// `pre-predownload-created` (or `image-predownload-ignored` when the update cannot go in place,
// the CloneSet has 3 replicas or fewer, or every pod updates in one batch), so each revision is
// considered once. Once the revisions converge the jobs go. Pure.
import type { KubeObject } from '../../kube/http.js';
import { scaledValue, type IntOrString } from '../../kube/intstr.js';
import { inPlaceUpdateSpec, type PodTemplate } from '../../workload/inplace-update.js';
import { CONTROLLER_REVISION_HASH_LABEL, type ControllerRevision } from '../../workload/revisions.js';
import { templateOfRevision } from '../../workload/template-revision.js';
import { CLONESET_API_VERSION, CLONESET_KIND, REVISION_HASH_LABEL } from '../types.js';
import { eventNote, vctForbidsInPlace, type CloneSetRun } from './run.js';
import { controllerReference } from '../../kube/owner-reference.js';

export const PARALLELISM_ANNOTATION = 'apps.kruise.io/image-predownload-parallelism';
export const TIMEOUT_ANNOTATION = 'apps.kruise.io/image-predownload-timeout-seconds';
export const MIN_UPDATED_READY_ANNOTATION = 'apps.kruise.io/image-predownload-min-updated-ready-pods';
export const CREATED_LABEL = 'apps.kruise.io/pre-predownload-created';
export const IGNORED_LABEL = 'apps.kruise.io/image-predownload-ignored';
const MINIMUM_REPLICAS = 3;
const DEFAULT_TIMEOUT_SECONDS = 300;
const JOB_API_VERSION = 'apps.kruise.io/v1alpha1';
const JOB_KIND = 'ImagePullJob';

/** The ImagePullJobs the CloneSet controller reads: only their owner matters. */
export type PreDownloadJob = { metadata: { name: string; namespace: string; uid?: string; deletionTimestamp?: string | null; ownerReferences?: { uid?: string; controller?: boolean }[] } };

/** intstr.Parse: digits are an int, anything else a string. */
const parseIntOrString = (text: string): IntOrString => (/^-?\d+$/.test(text) ? Number(text) : text);

function scaled(v: IntOrString | undefined, total: number, roundUp: boolean, fallback: number): number {
  if (v === undefined) return fallback;
  const n = scaledValue(v, total, roundUp);
  return typeof n === 'number' ? n : fallback;
}

function labelRevision(run: CloneSetRun, revision: ControllerRevision, label: string, why: string): void {
  run.plan.writes.push({ op: 'patch', target: { apiVersion: 'apps/v1', kind: 'ControllerRevision', name: revision.metadata.name, namespace: run.cs.metadata.namespace }, patch: { metadata: { labels: { [label]: 'true' } } }, patchType: 'merge', reason: `CloneSet ${run.cs.metadata.name}: revision ${revision.metadata.name} ${why}` });
}

/** diffImagesBetweenRevisions: containers of the new template whose image is new or changed. */
function changedImages(from: PodTemplate, to: PodTemplate): [string, string][] {
  const old = new Map(((from.spec?.containers ?? []) as { name: string; image?: string }[]).map((c) => [c.name, c.image]));
  return ((to.spec?.containers ?? []) as { name: string; image?: string }[]).filter((c) => old.get(c.name) !== c.image).map((c) => [c.name, c.image ?? '']);
}

/** Why pre-download does not apply to this update, or undefined. */
function ignoredBecause(run: CloneSetRun, current: ControllerRevision, update: ControllerRevision, from: PodTemplate | undefined, to: PodTemplate | undefined): string | undefined {
  const { cs } = run;
  const strategy = cs.spec.updateStrategy ?? {};
  const replicas = cs.spec.replicas ?? 1;
  if ((strategy.type ?? 'ReCreate') === 'ReCreate') return 'updates by recreating pods';
  if (replicas <= MINIMUM_REPLICAS) return `belongs to a CloneSet of ${MINIMUM_REPLICAS} replicas or fewer`;
  const partition = Math.min(scaled(strategy.partition, replicas, true, 0), replicas);
  const maxUnavailable = scaled(strategy.maxUnavailable ?? '20%', replicas, false, 0);
  if (partition === 0 && maxUnavailable >= replicas) return 'updates every pod in one batch';
  if (!from || !to || vctForbidsInPlace(run, current, update) || inPlaceUpdateSpec(from, to).kind !== 'in-place') return 'cannot be updated in place';
  return undefined;
}

function createJobs(run: CloneSetRun, current: ControllerRevision, update: ControllerRevision): void {
  const { cs } = run;
  const from = templateOfRevision(current) as PodTemplate | undefined;
  const to = templateOfRevision(update) as PodTemplate | undefined;
  const ignored = ignoredBecause(run, current, update, from, to);
  if (ignored) return labelRevision(run, update, IGNORED_LABEL, `${ignored}: no image pre-download`);
  const template = (cs.spec.template ?? {}) as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: { imagePullSecrets?: { name?: string }[] } };
  const hash = update.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
  const labels = { ...(template.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash };
  const selector = structuredClone((cs.spec.selector ?? {}) as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] });
  selector.matchExpressions = [...(selector.matchExpressions ?? []), { key: REVISION_HASH_LABEL, operator: 'NotIn', values: [update.metadata.name, hash] }];
  const annotations = cs.metadata.annotations ?? {};
  const parallelism = annotations[PARALLELISM_ANNOTATION] ? parseIntOrString(annotations[PARALLELISM_ANNOTATION]) : 1;
  const timeout = Number(annotations[TIMEOUT_ANNOTATION] ?? DEFAULT_TIMEOUT_SECONDS);
  const pullSecrets = (template.spec?.imagePullSecrets ?? []).map((s) => s.name ?? '').filter(Boolean);
  for (const [container, image] of changedImages(from!, to!)) {
    const name = `${update.metadata.name}-${container}`;
    const job = {
      apiVersion: JOB_API_VERSION,
      kind: JOB_KIND,
      metadata: { name, namespace: cs.metadata.namespace, labels, ownerReferences: [controllerReference(CLONESET_API_VERSION, CLONESET_KIND, cs.metadata)] },
      spec: {
        image,
        ...(pullSecrets.length ? { pullSecrets } : {}),
        podSelector: selector,
        parallelism,
        pullPolicy: { backoffLimit: 1, timeoutSeconds: Number.isInteger(timeout) ? timeout : DEFAULT_TIMEOUT_SECONDS },
        completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
        sandboxConfig: { labels, annotations: { ...(template.metadata?.annotations ?? {}) } },
      },
    };
    run.plan.writes.push({
      op: 'create',
      object: job as unknown as KubeObject,
      reason: `CloneSet ${cs.metadata.name}: pre-download ${image} for revision ${update.metadata.name}`,
      event: eventNote(run, 'Normal', 'CreatedImagePullJob', `created ImagePullJob ${name} for image: ${image}`),
    });
  }
  labelRevision(run, update, CREATED_LABEL, 'has its images pre-downloaded');
}

/**
 * `stored`: the revisions as listed (a revision created in this run is labelled on a later one).
 * `jobs`: the ImagePullJobs in the CloneSet's namespace.
 */
export function planImagePreDownload(run: CloneSetRun, stored: readonly ControllerRevision[], jobs: readonly PreDownloadJob[]): void {
  const { cs } = run;
  if (run.currentRevision === run.updateRevision) {
    for (const job of jobs) {
      const owner = job.metadata.ownerReferences?.find((o) => o.controller);
      if (!owner || owner.uid !== cs.metadata.uid || job.metadata.deletionTimestamp) continue;
      run.plan.writes.push({ op: 'delete', target: { apiVersion: JOB_API_VERSION, kind: JOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace }, ...(job.metadata.uid ? { preconditions: { uid: job.metadata.uid } } : {}), propagationPolicy: 'Background', reason: `CloneSet ${cs.metadata.name}: its revisions have converged, its image pre-download is over` });
    }
    return;
  }
  const update = stored.find((r) => r.metadata.name === run.updateRevision);
  const current = stored.find((r) => r.metadata.name === run.currentRevision);
  if (!update || !current || update.metadata.labels?.[CREATED_LABEL] !== undefined || update.metadata.labels?.[IGNORED_LABEL] !== undefined) return;
  const status = (cs.status ?? {}) as { updateRevision?: string; updatedReadyReplicas?: number };
  const updatedReady = status.updateRevision === run.updateRevision ? (status.updatedReadyReplicas ?? 0) : 0;
  const min = cs.metadata.annotations?.[MIN_UPDATED_READY_ANNOTATION];
  const minUpdatedReady = min ? scaled(parseIntOrString(min), cs.spec.replicas ?? 1, true, 0) : 0;
  if (minUpdatedReady <= updatedReady) createJobs(run, current, update);
}
