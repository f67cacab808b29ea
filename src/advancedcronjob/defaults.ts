// AdvancedCronJob defaults as OpenKruise's mutating webhook sets them (SetDefaultsAdvancedCronJob):
// concurrencyPolicy Allow, paused false, successfulJobsHistoryLimit 3, failedJobsHistoryLimit 1,
// and the pod template of the Job or BroadcastJob template defaulted (SetDefaultPodSpec) on CREATE
// and when an UPDATE changes the template. Pure: returns a copy.
import { isRecord } from '../kube/validation.js';
import { defaultedTemplateSpec } from '../workload/template-defaults.js';
import { defaultImageListPullJobTemplate } from './imagelistpull-template.js';
import { DEFAULT_FAILED_HISTORY, DEFAULT_SUCCESSFUL_HISTORY, type AdvancedCronJobLike } from './types.js';

/** The pod template inside a Job or BroadcastJob template (`<template>.spec.template`), if any. */
function podTemplateOf(template: unknown): Record<string, unknown> | undefined {
  if (!isRecord(template) || !isRecord(template.spec)) return undefined;
  if (!isRecord(template.spec.template)) template.spec.template = {};
  return template.spec.template as Record<string, unknown>;
}

export function defaultedAdvancedCronJob<T extends AdvancedCronJobLike>(input: T, injectTemplateDefaults: boolean): T {
  const acj = structuredClone(input);
  const spec = isRecord(acj.spec) ? acj.spec : (acj.spec = {} as T['spec']);
  if (injectTemplateDefaults && isRecord(spec.template)) {
    for (const t of [spec.template.jobTemplate, spec.template.broadcastJobTemplate]) {
      const pod = podTemplateOf(t);
      if (pod) pod.spec = defaultedTemplateSpec(pod.spec);
    }
  }
  const imageList = isRecord(spec.template) ? spec.template.imageListPullJobTemplate : undefined;
  if (isRecord(imageList)) defaultImageListPullJobTemplate(imageList);
  // Concurrent pulls of the same images are useless: an imageListPullJobTemplate defaults to Replace.
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = isRecord(imageList) ? 'Replace' : 'Allow';
  spec.paused ??= false;
  spec.successfulJobsHistoryLimit ??= DEFAULT_SUCCESSFUL_HISTORY;
  spec.failedJobsHistoryLimit ??= DEFAULT_FAILED_HISTORY;
  return acj;
}
