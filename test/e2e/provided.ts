// Values global-setup.ts provides to every e2e test file (read with `inject`).
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfig: string;
    kubectl: string;
    caCert: string;
  }
}
