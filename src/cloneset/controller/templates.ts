// The pod template a CloneSet revision holds (its data is `{"spec":{"template":{…,"$patch":"replace"}}}`).
import { isRecord } from '../../kube/validation.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import type { Template } from './new-pod.js';

export function templateOfRevision(rev: ControllerRevision | undefined): Template | undefined {
  const data = isRecord(rev?.data) ? rev.data : undefined;
  const spec = isRecord(data?.spec) ? data.spec : undefined;
  if (!isRecord(spec?.template)) return undefined;
  const { $patch: _p, ...template } = spec.template;
  return template as Template;
}
