// Typed failures of API-server calls; the status code decides what a caller does next.
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

export function isNotFound(e: unknown): boolean {
  return e instanceof KubeApiError && e.status === 404;
}

export function isConflict(e: unknown): boolean {
  return e instanceof KubeApiError && e.status === 409;
}

export function isAlreadyExists(e: unknown): boolean {
  return e instanceof KubeApiError && e.status === 409 && e.reason === 'AlreadyExists';
}

/** A write refused because its namespace is being deleted (NamespaceLifecycle): moot, not a failure. */
export function isNamespaceTerminating(e: unknown): boolean {
  if (!(e instanceof KubeApiError) || e.status !== 403) return false;
  const causes = (e.body as { details?: { causes?: { reason?: string }[] } } | undefined)?.details?.causes ?? [];
  return causes.some((c) => c.reason === 'NamespaceTerminating');
}
