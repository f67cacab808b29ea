// main.go of the scratch module scripts/openkruise-revision-vectors.ts builds (not part of the
// TypeScript project). The functions below are OpenKruise v1.9.0's and Kubernetes v1.32's, kept
// as they are there; the workload structs carry only what getPatch reads (spec.template) and what
// NewRevision copies (name, annotations, template labels, claims).
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"hash/fnv"
	"os"
	"reflect"
	"sort"
	"strconv"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/dump"
	"k8s.io/apimachinery/pkg/util/rand"
)

type workloadSpec struct {
	Template             corev1.PodTemplateSpec         `json:"template"`
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
}

type workload struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              workloadSpec `json:"spec"`
	Status            struct {
		CollisionCount *int32 `json:"collisionCount,omitempty"`
	} `json:"status"`
}

type sidecarSet struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Containers     []appsv1alpha1.SidecarContainer `json:"containers,omitempty"`
		InitContainers []appsv1alpha1.SidecarContainer `json:"initContainers,omitempty"`
	} `json:"spec"`
}

// ---- k8s.io/kubernetes/pkg/util/hash, pkg/controller, pkg/controller/history (v1.32) ----

func DeepHashObject(hasher hash.Hash, objectToWrite interface{}) {
	hasher.Reset()
	fmt.Fprintf(hasher, "%v", dump.ForHash(objectToWrite))
}

func ComputeHash(template *corev1.PodTemplateSpec, collisionCount *int32) string {
	podTemplateSpecHasher := fnv.New32a()
	DeepHashObject(podTemplateSpecHasher, *template)

	// Add collisionCount in the hash if it exists.
	if collisionCount != nil {
		collisionCountBytes := make([]byte, 8)
		binary.LittleEndian.PutUint32(collisionCountBytes, uint32(*collisionCount))
		podTemplateSpecHasher.Write(collisionCountBytes)
	}

	return rand.SafeEncodeString(fmt.Sprint(podTemplateSpecHasher.Sum32()))
}

// HashControllerRevision, for a revision whose Data holds Raw bytes only.
func HashControllerRevision(raw []byte, probe *int32) string {
	hf := fnv.New32()
	if len(raw) > 0 {
		hf.Write(raw)
	}
	if probe != nil {
		hf.Write([]byte(strconv.FormatInt(int64(*probe), 10)))
	}
	return rand.SafeEncodeString(fmt.Sprint(hf.Sum32()))
}

func ControllerRevisionName(prefix string, hash string) string {
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}

	return fmt.Sprintf("%s-%s", prefix, hash)
}

const ControllerRevisionHashLabel = "controller.kubernetes.io/hash"

// ---- getPatch (cloneset_revision.go, stateful_set_utils.go, daemonset_history.go) ----------

func getPatch(obj *workload) ([]byte, error) {
	str, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var raw map[string]interface{}
	err = json.Unmarshal(str, &raw)
	if err != nil {
		return nil, err
	}
	objCopy := make(map[string]interface{})
	specCopy := make(map[string]interface{})
	spec := raw["spec"].(map[string]interface{})
	template := spec["template"].(map[string]interface{})
	specCopy["template"] = template
	template["$patch"] = "replace"
	objCopy["spec"] = specCopy
	patch, err := json.Marshal(objCopy)
	return patch, err
}

// ---- pkg/util/volumeclaimtemplate ----------------------------------------------------------

const HashAnnotation = "kruise.io/cloneset-volumeclaimtemplate-hash"

func getExpectHash(templates []corev1.PersistentVolumeClaim) uint64 {
	var pvcs []corev1.PersistentVolumeClaim
	for _, t := range templates {
		pvcs = append(pvcs, corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: t.Name}, Spec: t.Spec})
	}
	sort.SliceStable(pvcs, func(i, j int) bool { return pvcs[i].Name < pvcs[j].Name })
	b, _ := json.Marshal(pvcs)
	hf := fnv.New32a()
	DeepHashObject(hf, b)
	return uint64(hf.Sum32())
}

func PatchVCTemplateHash(annotations map[string]string, vcTemplates []corev1.PersistentVolumeClaim) {
	if len(vcTemplates) == 0 {
		annotations[HashAnnotation] = ""
		return
	}
	annotations[HashAnnotation] = strconv.FormatUint(getExpectHash(vcTemplates), 10)
}

// ---- pkg/control/sidecarcontrol/hash.go ----------------------------------------------------

func IsSidecarContainer(container corev1.Container) bool {
	if container.RestartPolicy != nil && *container.RestartPolicy == corev1.ContainerRestartPolicy("Always") { // ContainerRestartPolicyAlways: consts are not extracted
		return true
	}
	return false
}

func encodeSidecarSet(s *sidecarSet) (string, error) {
	m := map[string]interface{}{"containers": s.Spec.Containers}
	initContainer := make([]appsv1alpha1.SidecarContainer, 0)
	for i := range s.Spec.InitContainers {
		container := &s.Spec.InitContainers[i]
		if IsSidecarContainer(container.Container) {
			initContainer = append(initContainer, *container)
		}
	}
	if len(initContainer) > 0 {
		m["initContainers"] = s.Spec.InitContainers
	}
	data, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

func sha(data string) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(data))) }

func SidecarSetHash(s *sidecarSet) string {
	encoded, _ := encodeSidecarSet(s)
	return rand.SafeEncodeString(sha(encoded))
}

func SidecarSetHashWithoutImage(s *sidecarSet) string {
	var ss sidecarSet
	b, _ := json.Marshal(s)
	_ = json.Unmarshal(b, &ss) // DeepCopy
	for i := range ss.Spec.Containers {
		ss.Spec.Containers[i].Image = ""
	}
	for i := range ss.Spec.InitContainers {
		ss.Spec.InitContainers[i].Image = ""
	}
	encoded, _ := encodeSidecarSet(&ss)
	return rand.SafeEncodeString(sha(encoded))
}

// ---- driver --------------------------------------------------------------------------------

type input struct {
	Kind   string          `json:"kind"`
	Object json.RawMessage `json:"object"`
}

type revision struct {
	Name        string            `json:"name"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Data        string            `json:"data"`
}

func cloneLabels(in map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range in {
		out[k] = v
	}
	return out
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// goType describes a type as reflect (and so go-spew) sees it: for scripts that print like spew.
type goType struct {
	Name   string     `json:"name"`
	Kind   string     `json:"kind"`
	Elem   string     `json:"elem,omitempty"`
	Key    string     `json:"key,omitempty"`
	Fields [][]string `json:"fields,omitempty"` // [Go name, json name, type name]
}

func describe(t reflect.Type, seen map[string]goType) {
	name := t.String()
	if _, ok := seen[name]; ok {
		return
	}
	d := goType{Name: name, Kind: t.Kind().String()}
	seen[name] = d
	switch t.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Array:
		d.Elem = t.Elem().String()
		describe(t.Elem(), seen)
	case reflect.Map:
		d.Key, d.Elem = t.Key().String(), t.Elem().String()
		describe(t.Key(), seen)
		describe(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if j := len(tag); j > 0 {
				for k := 0; k < len(tag); k++ {
					if tag[k] == ',' {
						j = k
						break
					}
				}
				tag = tag[:j]
			}
			d.Fields = append(d.Fields, []string{f.Name, tag, f.Type.String()})
			describe(f.Type, seen)
		}
	}
	seen[name] = d
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "types" {
		seen := map[string]goType{}
		describe(reflect.TypeOf(corev1.PodTemplateSpec{}), seen)
		must(json.NewEncoder(os.Stdout).Encode(seen))
		return
	}
	var inputs []input
	must(json.NewDecoder(os.Stdin).Decode(&inputs))
	var out []map[string]interface{}
	for _, in := range inputs {
		res := map[string]interface{}{"kind": in.Kind}
		switch in.Kind {
		case "CloneSet", "StatefulSet":
			var w workload
			must(json.Unmarshal(in.Object, &w))
			patch, err := getPatch(&w)
			must(err)
			// history.NewControllerRevision
			labels := cloneLabels(w.Spec.Template.Labels)
			// getActiveRevisions / getStatefulSetRevisions: the count is never nil here.
			var collisionCount int32
			if w.Status.CollisionCount != nil {
				collisionCount = *w.Status.CollisionCount
			}
			h := HashControllerRevision(patch, &collisionCount)
			name := ControllerRevisionName(w.Name, h)
			labels[ControllerRevisionHashLabel] = h
			annotations := map[string]string{}
			for k, v := range w.Annotations {
				annotations[k] = v
			}
			podLabels := map[string]string{"controller-revision-hash": name}
			if in.Kind == "CloneSet" {
				PatchVCTemplateHash(annotations, w.Spec.VolumeClaimTemplates)
				podLabels["pod-template-hash"] = h // GetShortHash(name)
			}
			res["revision"] = revision{Name: name, Labels: labels, Annotations: annotations, Data: string(patch)}
			res["podLabels"] = podLabels
		case "DaemonSet":
			var w workload
			must(json.Unmarshal(in.Object, &w))
			patch, err := getPatch(&w)
			must(err)
			h := ComputeHash(&w.Spec.Template, w.Status.CollisionCount)
			labels := cloneLabels(w.Spec.Template.Labels)
			labels["controller-revision-hash"] = h
			res["revision"] = revision{Name: w.Name + "-" + h, Labels: labels, Annotations: w.Annotations, Data: string(patch)}
			res["podLabels"] = map[string]string{"controller-revision-hash": h}
			res["spew"] = dump.ForHash(w.Spec.Template) // what ComputeHash hashes
		case "SidecarSet":
			var s sidecarSet
			must(json.Unmarshal(in.Object, &s))
			res["annotations"] = map[string]string{
				"kruise.io/sidecarset-hash":               SidecarSetHash(&s),
				"kruise.io/sidecarset-hash-without-image": SidecarSetHashWithoutImage(&s),
			}
		case "ClaimTemplates":
			var claims []corev1.PersistentVolumeClaim
			must(json.Unmarshal(in.Object, &claims))
			res["hash"] = strconv.FormatUint(getExpectHash(claims), 10)
		default:
			panic("unknown kind " + in.Kind)
		}
		out = append(out, res)
	}
	must(json.NewEncoder(os.Stdout).Encode(out))
}
