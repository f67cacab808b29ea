// The operations of the admission API (admission.k8s.io/v1 AdmissionRequest.operation, and the
// admissionregistration rules that select them): spoken by the webhook framework and by the
// edge's state, which records what was admitted.
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
