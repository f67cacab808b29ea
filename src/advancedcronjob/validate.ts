// Validation of an AdvancedCronJob with OpenKruise's rules, field paths and messages
// (pkg/webhook/advancedcronjob/validating): the name, the schedule (robfig's ParseStandard
// grammar, see schedule-syntax.ts: croner stays out of the Worker) and time zone, exactly one template with its pod template validated
// as a pod, non-negative deadline and history limits, and on UPDATE only the scheduling fields may
// change. An invalid schedule or zone is refused here, at the edge: the controller never falls
// back to another zone. Pure.
import type { FieldError } from '../kube/field-errors.js';
import { defaultPodSpecParts } from '../kube/pod-defaults.js';
import { validatePodParts } from '../kube/pod-validation.js';
import { NEGATIVE_ERROR, isRecord, maxLenError, regexError, validateAnnotations, validateLabels } from '../kube/validation.js';
import { validateImageListPullJobTemplate } from './imagelistpull-template.js';
import { readSchedule, timeZoneProblem } from './schedule-syntax.js';
import type { AdvancedCronJobLike } from './types.js';

const NAME_MAX = 63;
const NAME_FMT = '^[a-zA-Z0-9\\-]+$';
const NAME_MSG = "AdvancedCronJob name must consist of alphanumeric characters or '-'";

const nonNegative = (v: unknown, field: string): FieldError[] => (typeof v === 'number' && v < 0 ? [{ field, type: 'Invalid', value: v, detail: NEGATIVE_ERROR }] : []);

function validateName(name: string | undefined): FieldError[] {
  const n = name ?? '';
  const errs: FieldError[] = [];
  if (!new RegExp(NAME_FMT).test(n)) errs.push({ field: 'metadata.name', type: 'Invalid', value: n, detail: regexError(NAME_MSG, NAME_FMT, 'example-com') });
  if (n.length > NAME_MAX) errs.push({ field: 'metadata.name', type: 'Invalid', value: n, detail: maxLenError(NAME_MAX) });
  return errs;
}

function validateSchedule(spec: AdvancedCronJobLike['spec']): FieldError[] {
  const schedule = spec.schedule ?? '';
  const errs: FieldError[] = [];
  if (schedule.length === 0) errs.push({ field: 'spec.schedule', type: 'Invalid', value: schedule, detail: 'schedule cannot be empty, please provide valid cron schedule.' });
  // The zone is checked on its own (below): parse the schedule without it.
  const parsed = readSchedule(schedule);
  if (!parsed.ok) errs.push({ field: 'spec.schedule', type: 'Invalid', value: schedule, detail: parsed.error });
  if (schedule.includes('TZ') && spec.timeZone !== undefined && spec.timeZone !== null) {
    errs.push({ field: 'spec.schedule', type: 'Invalid', value: schedule, detail: 'cannot use both timeZone field and TZ or CRON_TZ in schedule' });
  }
  return errs;
}

/** ValidatePodTemplateSpec at `spec.template` (OpenKruise's path for either template's pod template). */
function validatePodTemplate(template: unknown): FieldError[] {
  const spec = isRecord(template) && isRecord(template.spec) ? template.spec : {};
  const pod = isRecord(spec.template) ? spec.template : {};
  const meta = isRecord(pod.metadata) ? pod.metadata : {};
  const podSpec = isRecord(pod.spec) ? pod.spec : {};
  const parts = defaultPodSpecParts(structuredClone(podSpec));
  return [
    ...validateLabels(meta.labels, 'spec.template.metadata.labels'),
    ...validateAnnotations(meta.annotations, 'spec.template.metadata.annotations'),
    ...validatePodParts({ containers: parts.containers, initContainers: parts.initContainers, volumes: parts.volumes }).map((e) => ({ ...e, field: e.field.replace(/^spec\./, 'spec.template.spec.') })),
  ];
}

function validateTemplate(spec: AdvancedCronJobLike['spec']): FieldError[] {
  const t = isRecord(spec.template) ? spec.template : {};
  const given = [t.jobTemplate, t.broadcastJobTemplate].filter((x) => x !== undefined && x !== null);
  const imageList = t.imageListPullJobTemplate !== undefined && t.imageListPullJobTemplate !== null;
  if (given.length === 0 && !imageList) {
    return [{ field: 'spec.template', type: 'Forbidden', detail: 'spec must have one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided' }];
  }
  const errs = given.flatMap(validatePodTemplate);
  if (imageList) errs.push(...validateImageListPullJobTemplate(t.imageListPullJobTemplate, spec.concurrencyPolicy));
  if (given.length + Number(imageList) > 1) {
    errs.push({ field: 'spec.template', type: 'Forbidden', detail: 'spec can have only one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided' });
  }
  return errs;
}

function validateZone(zone: unknown): FieldError[] {
  if (zone === undefined || zone === null) return [];
  const z = String(zone);
  const problem = timeZoneProblem(z);
  return problem ? [{ field: 'spec.timeZone', type: 'Invalid', value: z, detail: problem }] : [];
}

function validateSpec(spec: AdvancedCronJobLike['spec']): FieldError[] {
  return [
    ...validateSchedule(spec),
    ...validateTemplate(spec),
    ...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'),
    ...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'),
    ...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'),
    ...validateZone(spec.timeZone),
  ];
}

const MUTABLE = ['schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'paused', 'timeZone'] as const;

/** JSON with sorted keys: semantic equality of two decoded specs. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isRecord(v)) return `{${Object.keys(v).filter((k) => v[k] !== undefined && v[k] !== null).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

export function validateAdvancedCronJob(acj: AdvancedCronJobLike, old?: AdvancedCronJobLike): FieldError[] {
  const errs = [...(old ? [] : validateName(acj.metadata?.name)), ...validateSpec(acj.spec)];
  if (old) {
    // The imageListPullJobTemplate may change too (OpenKruise compares with the old one put back).
    const strip = (spec: AdvancedCronJobLike['spec']) => {
      const rest = Object.fromEntries(Object.entries(spec ?? {}).filter(([k]) => !(MUTABLE as readonly string[]).includes(k)));
      if (isRecord(rest.template)) rest.template = { ...rest.template, imageListPullJobTemplate: null };
      return rest;
    };
    if (canonical(strip(acj.spec)) !== canonical(strip(old.spec))) {
      errs.push({
        field: 'spec',
        type: 'Forbidden',
        detail: "updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden",
      });
    }
  }
  return errs;
}
