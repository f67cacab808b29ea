// The deletion-protection handler on `validate-delete` (SEMANTICS.md §5). The endpoint's
// objectSelector sends only objects carrying the label, and its failurePolicy is Fail: OpenKruise
// registers these webhooks with Ignore, which switches protection off whenever it is down
// (kruise#1840); a hosted webhook keeps it on.
import { allow, type AdmissionHandler } from '../admission/types.js';
import { COUNTS_COLLECTION, type ProtectionCounts } from './counts.js';
import { countsView, decideDeletion, type ProtectedObject } from './decide.js';
import { cascadeRuleFor, protectionOf } from './types.js';

export const deletionProtectionHandler: AdmissionHandler = async (req, state, ctx) => {
  if (req.operation !== 'DELETE' || req.subResource) return allow();
  const rule = cascadeRuleFor(req.resource.group, req.resource.resource);
  const old = req.oldObject as ProtectedObject | undefined;
  if (!rule || !old || typeof old !== 'object') return allow();
  // Only a Cascading Namespace or CRD needs the counts; don't read them for anything else.
  const needsCounts = (rule === 'namespace' || rule === 'crd') && protectionOf(old.metadata?.labels) === 'Cascading' && !old.metadata?.deletionTimestamp;
  const snapshot = needsCounts ? await state.collection<ProtectionCounts>(COUNTS_COLLECTION) : undefined;
  return decideDeletion(rule, old, countsView(snapshot, ctx.now));
};
