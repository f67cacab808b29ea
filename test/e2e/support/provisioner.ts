// A stand-in for the PV controller, which the test control plane runs without: every new claim in
// a namespace is bound to a hostPath PV made for it, so the scheduler places pods that mount
// claims. PVs carry a label, to be deleted after the file.
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import { isAlreadyExists, isNotFound } from '../../../src/kube/errors.js';

const PV_LABEL = 'e2e.kruise-serverless.io/provisioned-pv';

type Pvc = KubeObject & { metadata: { name: string; namespace: string; uid: string; deletionTimestamp?: string }; spec: { volumeName?: string } };

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Binds the namespace's new claims until stopped. */
export function startProvisioner(kube: KubeHttp, ns: string) {
  let on = true;
  const bind = async (pvc: Pvc) => {
    const name = `pv-${pvc.metadata.uid}`;
    await kube.create({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, labels: { [PV_LABEL]: ns } },
      spec: {
        capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', hostPath: { path: `/tmp/${name}` },
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns, name: pvc.metadata.name, uid: pvc.metadata.uid },
      },
    }).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
    await kube.patch(pvc, { metadata: { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }, spec: { volumeName: name } }).catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
  };
  const loop = (async () => {
    while (on) {
      // A failed pass (a claim deleted meanwhile, say) is simply tried again.
      await kube.list<Pvc>('v1', 'PersistentVolumeClaim', { namespace: ns })
        .then(({ items }) => Promise.all(items.filter((c) => !c.spec.volumeName && !c.metadata.deletionTimestamp).map(bind)))
        .catch(() => undefined);
      await pause(30);
    }
  })();
  return { stop: async () => { on = false; await loop; } };
}

export async function deleteProvisionedVolumes(kube: KubeHttp): Promise<void> {
  for (const pv of (await kube.list<KubeObject>('v1', 'PersistentVolume', { labelSelector: PV_LABEL })).items) await kube.delete(pv).catch(() => undefined);
}
