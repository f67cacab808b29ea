// Every e2e file shares one control plane. A file that starts the system (scripts/system.ts) or
// installs the cluster side points our CRDs' conversion at its edge, which stops with the file:
// the next file's writes in another version would then fail to convert. Each file ends by taking
// them off the webhook again, as the uninstaller does.
import { afterAll } from 'vitest';
import { removeConversionWebhooks } from '../../src/install/apply.js';
import { testKube } from './support/kube.js';

afterAll(async () => {
  const kube = await testKube();
  try {
    await removeConversionWebhooks(kube);
  } finally {
    kube.close();
  }
});
