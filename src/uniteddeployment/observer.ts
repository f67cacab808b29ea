// The endpoint that observes subset workloads' status changes (src/admission/endpoints.ts).
export const SUBSET_STATUS_OBSERVER = 'observe-subset-status';
