// Computes OpenKruise's `kruise.io/cloneset-volumeclaimtemplate-hash` with Go itself, for test
// literals that do not come from our own function (src/cloneset/vct-hash.ts). It builds a scratch
// Go module from: the PersistentVolumeClaim structs of k8s.io/api core/v1/types.go and the
// ObjectMeta structs of k8s.io/apimachinery meta/v1/types.go, copied verbatim (their json tags are
// what matters); metav1.Time's MarshalJSON; github.com/davecgh/go-spew as it is; and a main that
// does what getExpectHash and k8s DeepHashObject do. Quantities are written as given, so give them
// in canonical form. It checks itself on OpenKruise's three vectors first. Needs `go` (1.19+),
// no network:
//   git -C <kubernetes/api clone> show v0.32.10:core/v1/types.go > /tmp/types.go
//   git -C <kubernetes/apimachinery clone> show v0.32.10:pkg/apis/meta/v1/types.go > /tmp/metatypes.go
//   npx tsx scripts/vct-hash-go-vectors.ts /tmp/types.go /tmp/metatypes.go <go-spew clone> [vectors.json]
// vectors.json: [[{ name, accessModes, requests, limits?, volumeMode?, storageClassName? }, …], …]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [typesPath, metaTypesPath, spewClone, vectorsPath] = process.argv.slice(2);
if (!typesPath || !metaTypesPath || !spewClone) throw new Error('usage: vct-hash-go-vectors.ts <core/v1/types.go> <meta/v1/types.go> <go-spew clone> [vectors.json]');

const CORE = [
  'PersistentVolumeClaim', 'PersistentVolumeClaimSpec', 'PersistentVolumeClaimStatus', 'PersistentVolumeAccessMode', 'VolumeResourceRequirements',
  'ResourceList', 'ResourceName', 'TypedLocalObjectReference', 'TypedObjectReference', 'PersistentVolumeMode', 'PersistentVolumeClaimPhase',
  'PersistentVolumeClaimCondition', 'PersistentVolumeClaimConditionType', 'ConditionStatus', 'ClaimResourceStatus', 'ModifyVolumeStatus',
  'PersistentVolumeClaimModifyVolumeStatus',
];
const META = ['TypeMeta', 'ObjectMeta', 'OwnerReference', 'ManagedFieldsEntry', 'ManagedFieldsOperationType', 'FieldsV1', 'LabelSelector', 'LabelSelectorRequirement', 'LabelSelectorOperator'];

/** The declarations of `names` in a Go file, verbatim. */
function extract(path: string, names: readonly string[]): string {
  const lines = readFileSync(path, 'utf8').split('\n');
  return names
    .map((n) => {
      const start = lines.findIndex((l) => l === `type ${n} struct {` || new RegExp(`^type ${n} [^\\s{]+\\s*$`).test(l));
      if (start < 0) throw new Error(`${path}: no type ${n}`);
      if (!lines[start]!.endsWith('{')) return lines[start]!;
      const end = lines.indexOf('}', start);
      return lines.slice(start, end + 1).join('\n');
    })
    .join('\n\n');
}

const dir = mkdtempSync(join(tmpdir(), 'vct-go-'));
const file = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
file('go.mod', 'module vct\n\ngo 1.19\n\nrequire github.com/davecgh/go-spew v1.1.1\n\nreplace github.com/davecgh/go-spew => ./go-spew\n');
mkdirSync(join(dir, 'go-spew'));
execFileSync('sh', ['-c', `git -C "${spewClone}" archive HEAD spew | tar -x -C "${join(dir, 'go-spew')}"`]);
file('go-spew/go.mod', 'module github.com/davecgh/go-spew\n\ngo 1.19\n');
file('corev1/types.go', `package corev1\n\nimport (\n\tmetav1 "vct/metav1"\n\t"vct/resource"\n)\n\n${extract(typesPath, CORE)}\n`);
file('metav1/types.go', `package metav1\n\nimport "vct/types"\n\n${extract(metaTypesPath, META)}\n`);
file('types/uid.go', 'package types\n\ntype UID string\n');
file('metav1/time.go', `package metav1

import "time"

// As k8s.io/apimachinery pkg/apis/meta/v1/time.go marshals it: the zero time is null.
type Time struct {
	time.Time \`protobuf:"-"\`
}

func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(\`"\` + t.UTC().Format(time.RFC3339) + \`"\`), nil
}
`);
file('resource/quantity.go', `package resource

import "encoding/json"

// A struct, as resource.Quantity is (omitempty never drops it), written as its given text.
type Quantity struct{ s string }

func MustParse(s string) Quantity { return Quantity{s} }

func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.s) }
`);
file('main.go', `package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"sort"

	"github.com/davecgh/go-spew/spew"
	corev1 "vct/corev1"
	metav1 "vct/metav1"
	"vct/resource"
)

type claimIn struct {
	Name             string            \`json:"name"\`
	AccessModes      []string          \`json:"accessModes"\`
	Requests         map[string]string \`json:"requests"\`
	Limits           map[string]string \`json:"limits"\`
	VolumeMode       *string           \`json:"volumeMode"\`
	StorageClassName *string           \`json:"storageClassName"\`
}

func resources(m map[string]string) corev1.ResourceList {
	if m == nil {
		return nil
	}
	out := corev1.ResourceList{}
	for k, v := range m {
		out[corev1.ResourceName(k)] = resource.MustParse(v)
	}
	return out
}

func main() {
	var in [][]claimIn
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	for _, templates := range in {
		// getExpectHash: name and spec only, stable-sorted by name.
		var pvcs []corev1.PersistentVolumeClaim
		for _, t := range templates {
			var modes []corev1.PersistentVolumeAccessMode
			for _, a := range t.AccessModes {
				modes = append(modes, corev1.PersistentVolumeAccessMode(a))
			}
			spec := corev1.PersistentVolumeClaimSpec{AccessModes: modes, Resources: corev1.VolumeResourceRequirements{Requests: resources(t.Requests), Limits: resources(t.Limits)}, StorageClassName: t.StorageClassName}
			if t.VolumeMode != nil {
				m := corev1.PersistentVolumeMode(*t.VolumeMode)
				spec.VolumeMode = &m
			}
			pvcs = append(pvcs, corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: t.Name}, Spec: spec})
		}
		sort.SliceStable(pvcs, func(i, j int) bool { return pvcs[i].Name < pvcs[j].Name })
		b, _ := json.Marshal(pvcs)
		// DeepHashObject's printer.
		h := fnv.New32a()
		printer := spew.ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true}
		printer.Fprintf(h, "%#v", b)
		fmt.Printf("%d\\t%s\\n", h.Sum32(), b)
	}
}
`);

const run = (vectors: unknown): string[] =>
  execFileSync('go', ['run', '.'], { cwd: dir, input: JSON.stringify(vectors), env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' } })
    .toString()
    .trim()
    .split('\n');

// OpenKruise's own vectors (pkg/util/volumeclaimtemplate/volume_templates_hash_test.go).
const pvc = (name: string, request: string, limit: string) => ({ name, accessModes: ['ReadWriteOnce'], requests: { storage: request }, limits: { storage: limit } });
const check = run([[], [pvc('pvc-1', '1Gi', '2Gi')], [pvc('pvc-2', '2Gi', '4Gi'), pvc('pvc-1', '1Gi', '2Gi')]]).map((l) => l.split('\t')[0]);
if (check.join(' ') !== '86995377 1129974074 510584408') throw new Error(`the harness does not reproduce OpenKruise's vectors: ${check.join(' ')}`);
console.log('OpenKruise vectors reproduced: 86995377 1129974074 510584408');
if (vectorsPath) for (const line of run(JSON.parse(readFileSync(vectorsPath, 'utf8')))) console.log(line);
