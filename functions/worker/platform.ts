// The few Workers runtime shapes we use, typed structurally. (@cloudflare/workers-types declares
// Workers' globals, which clash with the DOM and Node types the rest of the program uses.)
export interface DurableObjectStorage {
  get<T>(key: string): Promise<T | undefined>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
  deleteAll(): Promise<void>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
}

export interface DurableObjectState {
  storage: DurableObjectStorage;
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}

export interface DurableObjectStub {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStub;
}

/** An Analytics Engine dataset binding. */
export interface AnalyticsEngineDataset {
  writeDataPoint(point: { indexes?: string[]; blobs?: string[]; doubles?: number[] }): void;
}

export type Env = {
  /** One Durable Object per cluster: credentials and pushed state. */
  CLUSTERS: DurableObjectNamespace;
  /** One Durable Object per ledger (`<clusterId>/<kind>/<namespace>/<name>`): budgets. */
  LEDGERS: DurableObjectNamespace;
  /** Bearer token of the admin API (a wrangler secret); the admin API is off without it. */
  ADMIN_TOKEN?: string;
  /** Change events go to this EventBridge bus (with the AWS_* settings); off when unset. */
  KS_EVENT_BUS_NAME?: string;
  AWS_REGION?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  /** Admission data points (functions/worker/analytics.ts); none written when unbound. */
  ADMISSIONS?: AnalyticsEngineDataset;
  /** debug|info|warn|error (default info), and the share of plain allows logged (default 1). */
  KS_LOG_LEVEL?: string;
  /** OpenKruise feature gates for the webhooks, `Name=true,…` (src/reconcile/feature-gates.ts). */
  KS_FEATURE_GATES?: string;
  KS_DECISION_LOG_SAMPLE?: string;
  /** Tests only: an EventBridge stand-in on loopback. */
  KS_EVENTBRIDGE_ENDPOINT?: string;
};
