// What the reconciler learnt from probing (./prober.ts) and the port it learns it through.
import type { ProbeState } from '../types.js';
import type { ProbeTarget } from './targets.js';

export type ProbeResult = {
  state: ProbeState;
  message: string;
  /** When the probe last ran (RFC 3339). */
  probedAt: string;
  /** When the state last changed (RFC 3339). */
  changedAt: string;
};

/** Runs the targets' probes (each at most once per period) and answers the results known, by target key. */
export interface Prober {
  probe(targets: readonly ProbeTarget[], now: Date): Promise<Map<string, ProbeResult>>;
}
