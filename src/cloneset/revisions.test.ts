import { describe, expect, it } from 'vitest';
import type { CloneSet } from '../api/apps/cloneset.js';
import { CONTROLLER_REVISION_HASH_LABEL } from '../workload/revisions.js';
import { cloneSetRevisionData, cloneSetRevisionName, newCloneSetRevision } from './revisions.js';

// Vector: OpenKruise's tutorial docs/tutorial/cloneset.md (openkruise/kruise, since commit
// e0992245a, 2020-01-22, still at HEAD) shows `kubectl get pod -L controller-revision-hash` output
// of a real cluster running OpenKruise: the CloneSet of docs/tutorial/v1/cloneset-guestbook.yaml
// got revision `guestbook-clone-64598d67b`, and after the image edit to openkruise/guestbook:v2,
// `guestbook-clone-56dfcdfff9`. The object below is that YAML as OpenKruise's mutating webhook of
// the time stored it (pkg/webhook/default_server/utils/default_utils.go SetDefaultPodTemplate:
// SetDefaults_PodSpec and SetDefaults_Container of Kubernetes 1.16). The names are OpenKruise's
// output; that our bytes hash to both is what proves them (a 32-bit FNV match by chance, twice, is
// not plausible).
function guestbook(image: string): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'guestbook-clone', namespace: 'default', uid: 'u-1', labels: { 'app.kubernetes.io/name': 'guestbook-clone' } },
    spec: {
      replicas: 20,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'guestbook-clone' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'guestbook-clone' } },
        spec: {
          containers: [
            {
              name: 'guestbook',
              image,
              imagePullPolicy: 'Always',
              ports: [{ name: 'http-server', containerPort: 3000, protocol: 'TCP' }],
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 3, partition: 0 },
    },
  } as CloneSet;
}

describe('CloneSet revision names: OpenKruise-computed vectors (docs/tutorial/cloneset.md)', () => {
  it('guestbook v1 is guestbook-clone-64598d67b', () => {
    expect(cloneSetRevisionName(guestbook('openkruise/guestbook:v1'), 0).name).toBe('guestbook-clone-64598d67b');
  });

  it('guestbook v2 (the tutorial image edit) is guestbook-clone-56dfcdfff9', () => {
    expect(cloneSetRevisionName(guestbook('openkruise/guestbook:v2'), 0).name).toBe('guestbook-clone-56dfcdfff9');
  });

  it('the data bytes behind those names', () => {
    expect(cloneSetRevisionData(guestbook('openkruise/guestbook:v1'))).toBe(
      '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app.kubernetes.io/name":"guestbook-clone"}},' +
        '"spec":{"containers":[{"image":"openkruise/guestbook:v1","imagePullPolicy":"Always","name":"guestbook",' +
        '"ports":[{"containerPort":3000,"name":"http-server","protocol":"TCP"}],"resources":{},' +
        '"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],' +
        '"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},' +
        '"terminationGracePeriodSeconds":30}}}}',
    );
  });

  it('zero values Go drops (omitempty) do not change the name', () => {
    const cs = guestbook('openkruise/guestbook:v1');
    const spec = cs.spec.template.spec as unknown as Record<string, unknown>;
    Object.assign(spec, { hostNetwork: false, nodeSelector: {}, tolerations: [], hostname: '' });
    Object.assign((spec.containers as Record<string, unknown>[])[0]!, { env: [], resources: {}, stdin: false, workingDir: '' });
    Object.assign(cs.spec.template.metadata!, { annotations: {}, creationTimestamp: null });
    expect(cloneSetRevisionName(cs, 0).name).toBe('guestbook-clone-64598d67b');
  });

  it('fields outside the template (replicas, strategy, CloneSet labels) do not change the name', () => {
    const cs = guestbook('openkruise/guestbook:v1');
    cs.spec.replicas = 25;
    cs.spec.updateStrategy = { type: 'ReCreate', partition: 15 };
    expect(cloneSetRevisionName(cs, 0).name).toBe('guestbook-clone-64598d67b');
  });
});

// A CloneSet with volumeClaimTemplates: OpenKruise's NewRevision hashes only the template patch
// (getPatch: spec.template with $patch replace), so the name is the tutorial's, and PatchVCTemplateHash
// adds the claims' hash as an annotation. 3510603703 and 1129974074 are Go's (scripts/vct-hash-go-vectors.ts;
// the second is OpenKruise's own single-pvc vector, volume_templates_hash_test.go).
describe('CloneSet revisions with volumeClaimTemplates', () => {
  const withClaims = (image: string, claims: unknown[]): CloneSet => {
    const cs = guestbook(image);
    return { ...cs, spec: { ...cs.spec, volumeClaimTemplates: claims } } as CloneSet;
  };
  const dataVol = { metadata: { name: 'data-vol' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } }, volumeMode: 'Filesystem' } };
  const pvc1 = { metadata: { name: 'pvc-1' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' }, limits: { storage: '2Gi' } } } };

  it('keeps OpenKruise’s name (guestbook-clone-64598d67b, 56dfcdfff9 after the image edit) and carries the claims’ hash', () => {
    const v1 = newCloneSetRevision(withClaims('openkruise/guestbook:v1', [dataVol]), 0, 1);
    expect(v1.metadata.name).toBe('guestbook-clone-64598d67b');
    expect(v1.metadata.annotations?.['kruise.io/cloneset-volumeclaimtemplate-hash']).toBe('3510603703');
    const v2 = newCloneSetRevision(withClaims('openkruise/guestbook:v2', [pvc1]), 0, 2);
    expect(v2.metadata.name).toBe('guestbook-clone-56dfcdfff9');
    expect(v2.metadata.annotations?.['kruise.io/cloneset-volumeclaimtemplate-hash']).toBe('1129974074');
  });

  it('a claim change alone keeps the name and changes only the annotation', () => {
    const bigger = { ...dataVol, spec: { ...dataVol.spec, resources: { requests: { storage: '2Gi' } } } };
    const a = newCloneSetRevision(withClaims('openkruise/guestbook:v1', [dataVol]), 0, 1);
    const b = newCloneSetRevision(withClaims('openkruise/guestbook:v1', [bigger]), 0, 1);
    expect(b.metadata.name).toBe(a.metadata.name);
    expect(b.metadata.annotations?.['kruise.io/cloneset-volumeclaimtemplate-hash']).not.toBe(a.metadata.annotations?.['kruise.io/cloneset-volumeclaimtemplate-hash']);
  });
});

describe('newCloneSetRevision', () => {
  it('collisionCount changes the hash, name and hash label', () => {
    const cs = guestbook('openkruise/guestbook:v1');
    const r0 = newCloneSetRevision(cs, 0, 1);
    const r1 = newCloneSetRevision(cs, 1, 1);
    expect(r0.metadata.name).toBe('guestbook-clone-64598d67b');
    expect(r1.metadata.name).not.toBe(r0.metadata.name);
    expect(r1.metadata.name).toBe(`guestbook-clone-${r1.metadata.labels![CONTROLLER_REVISION_HASH_LABEL]}`);
    expect(r1.data).toEqual(r0.data);
  });

  it('carries template labels, the hash label, CloneSet annotations and a controller owner reference', () => {
    const cs = guestbook('openkruise/guestbook:v1');
    cs.metadata.annotations = { team: 'a' };
    const rev = newCloneSetRevision(cs, 0, 3);
    expect(rev).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      revision: 3,
      metadata: {
        name: 'guestbook-clone-64598d67b',
        namespace: 'default',
        labels: { 'app.kubernetes.io/name': 'guestbook-clone', [CONTROLLER_REVISION_HASH_LABEL]: '64598d67b' },
        annotations: { team: 'a', 'kruise.io/cloneset-volumeclaimtemplate-hash': '' },
        ownerReferences: [
          { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'guestbook-clone', uid: 'u-1', controller: true, blockOwnerDeletion: true },
        ],
      },
    });
    // The data object serialises back to the exact bytes.
    expect(JSON.stringify(rev.data)).toBe(cloneSetRevisionData(cs));
  });
});
