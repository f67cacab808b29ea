import type { V1ControllerRevision } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../kube/field-errors.js';
import { defaultSidecarSet } from './defaults.js';
import { CUSTOM_VERSION_LABEL, SIDECARSET_NAME_LABEL, type SidecarSet } from './types.js';
import { isSelectorOverlapping, parsePatchMetadataWhitelist, validateSidecarSet, type SidecarSetValidationContext } from './validate.js';

type Obj = Record<string, any>;

/** A valid, defaulted SidecarSet `sc` injecting `sidecar` into app=web pods, changed by `edit` (after defaulting). */
function sc(edit: (spec: Obj, meta: Obj) => void = () => {}, name = 'sc'): SidecarSet {
  const s = defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'sidecar', image: 'busybox:1' }] },
  } as unknown as SidecarSet) as unknown as Obj;
  edit(s.spec, s.metadata);
  return s as unknown as SidecarSet;
}
const other = (name: string, edit: (spec: Obj, meta: Obj) => void) => sc(edit, name);

const NAMESPACES: Record<string, Record<string, string>> = { prod: { env: 'prod' }, dev: { env: 'dev' } };
const ctx = (over: Partial<SidecarSetValidationContext> = {}): SidecarSetValidationContext => ({
  otherSets: [],
  namespaceLabels: (n) => NAMESPACES[n],
  patchMetadataWhitelist: { found: false },
  revisions: [],
  ...over,
});
const messages = (s: SidecarSet, c: SidecarSetValidationContext = ctx()) => validateSidecarSet(s, c).map(formatFieldError);

const revision = (name: string, labels: Record<string, string>, rev = 1, data: unknown = { spec: { containers: [] } }) =>
  ({ metadata: { name, namespace: 'kruise-system', labels }, revision: rev, data }) as unknown as V1ControllerRevision;

const QUALIFIED = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const EMPTY_SELECTOR = 'v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}';

describe('validateSidecarSet', () => {
  it('accepts a valid SidecarSet', () => {
    expect(messages(sc())).toEqual([]);
  });

  it.each<[string, SidecarSet, string[], SidecarSetValidationContext?]>([
    // ---- metadata
    ['name with a dot', sc(() => {}, 'a.b'), ["metadata.name: Invalid value: \"a.b\": sidecarset name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')"]],
    ['name longer than 63', sc(() => {}, 'a'.repeat(64)), [`metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
    ['no name', sc(() => {}, ''), ['metadata.name: Required value: name or generateName is required']],
    ['a namespace', sc((_s, m) => (m.namespace = 'x')), ['metadata.namespace: Forbidden: not allowed on this type']],
    ['an invalid label key', sc((_s, m) => (m.labels = { 'a b': 'x' })), [`metadata.labels: Invalid value: "a b": ${QUALIFIED}`]],

    // ---- selectors
    ['no selector', sc((s) => delete s.selector), ['spec.selector: Required value: no selector defined for SidecarSet']],
    ['an empty selector', sc((s) => (s.selector = { matchLabels: {} })), [`spec.selector: Invalid value: ${EMPTY_SELECTOR}: empty selector is not valid for sidecarset.`]],
    ['an invalid selector operator', sc((s) => (s.selector = { matchExpressions: [{ key: 'app', operator: 'Is', values: ['web'] }] })), [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
      'spec.selector.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Is", Values:[]string{"web"}}}}',
    ]],
    ['In without values', sc((s) => (s.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] })), [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.selector.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"In", Values:[]string(nil)}}}',
    ]],
    ['namespace and namespaceSelector together', sc((s) => ((s.namespace = 'prod'), (s.namespaceSelector = { matchLabels: { env: 'prod' } }))),
      ['spec.namespace, namespaceSelector: Required value: namespace and namespaceSelector are mutually exclusive']],
    ['an empty namespaceSelector', sc((s) => (s.namespaceSelector = { matchLabels: {} })),
      [`spec.namespaceSelector: Invalid value: ${EMPTY_SELECTOR}: empty selector is not valid for sidecarset.`]],

    // ---- injectionStrategy.revision
    ['a revision with neither name nor version', sc((s) => (s.injectionStrategy = { revision: { policy: 'Always' } })),
      ['revision: Invalid value: {"policy":"Always"}: revisionName and customVersion cannot be empty simultaneously']],
    ['a revisionName that does not exist', sc((s) => (s.injectionStrategy = { revision: { revisionName: 'r1', policy: 'Always' } })),
      ['revision: Invalid value: "null": Cannot find specific ControllerRevision, err: controllerrevisions.apps "r1" not found']],
    ['a customVersion without revisions', sc((s) => (s.injectionStrategy = { revision: { customVersion: 'v1', policy: 'Always' } })),
      ['revision: Invalid value: "null": Cannot find specific ControllerRevision, err: ControllerRevision.apps "sc" not found']],
    ['a customVersion of another set does not count', sc((s) => (s.injectionStrategy = { revision: { customVersion: 'v1', policy: 'Always' } })),
      ['revision: Invalid value: "null": Cannot find specific ControllerRevision, err: ControllerRevision.apps "sc" not found'],
      ctx({ revisions: [revision('r1', { [SIDECARSET_NAME_LABEL]: 'other', [CUSTOM_VERSION_LABEL]: 'v1' })] })],
    ['an unknown revision policy', sc((s) => (s.injectionStrategy = { revision: { revisionName: 'r1', policy: 'Sometimes' } })),
      ['revision.policy: Invalid value: {"revisionName":"r1","policy":"Sometimes"}: Invalid policy Sometimes, supported: [Always, Partial]'],
      ctx({ revisions: [revision('r1', {})] })],

    // ---- updateStrategy
    ['partition with selector', sc((s) => Object.assign(s.updateStrategy, { partition: 1, selector: { matchLabels: { a: 'b' } } })),
      ['updateStrategy: Invalid value: {"type":"RollingUpdate","maxUnavailable":1,"partition":1,"selector":{"matchLabels":{"a":"b"}}}: Partition and Selector cannot be used together']],
    ['an empty update selector', sc((s) => (s.updateStrategy.selector = {})),
      ['spec.updateStrategy.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for sidecarset.']],
    ['a malformed partition percentage', sc((s) => (s.updateStrategy.partition = 'x%')),
      ["spec.updateStrategy.partition: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x%\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]],
    ['a negative maxUnavailable', sc((s) => (s.updateStrategy.maxUnavailable = -1)), ['spec.updateStrategy.maxUnavailable: Invalid value: -1: must be greater than or equal to 0']],
    ['both priority kinds', sc((s) => (s.updateStrategy.priorityStrategy = { orderPriority: [{ orderedKey: 'k' }], weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }] })),
      ['spec.updateStrategy.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used']],
    ['a weight above 100', sc((s) => (s.updateStrategy.priorityStrategy = { weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }] })),
      ['spec.updateStrategy.priorityStrategy: Required value: weight must be valid number in the range 1-100']],
    ['a weight without selector', sc((s) => (s.updateStrategy.priorityStrategy = { weightPriority: [{ weight: 1, matchSelector: {} }] })),
      ['spec.updateStrategy.priorityStrategy: Required value: selector can not be empty']],
    ['an empty order key', sc((s) => (s.updateStrategy.priorityStrategy = { orderPriority: [{ orderedKey: '' }] })),
      ['spec.updateStrategy.priorityStrategy: Required value: order key can not be empty']],
    ['a duplicated scatter term', sc((s) => (s.updateStrategy.scatterStrategy = [{ key: 'a', value: 'b' }, { key: 'a', value: 'b' }])),
      ['spec.updateStrategy.scatterStrategy: Required value: duplicated key=a value=b']],
    ['a scatter term without key', sc((s) => (s.updateStrategy.scatterStrategy = [{ key: '', value: 'b' }])),
      ['spec.updateStrategy.scatterStrategy: Required value: key should not be empty']],
    ['NotUpdate skips the strategy checks', sc((s) => Object.assign(s.updateStrategy, { type: 'NotUpdate', partition: 'x' })), []],
    ['a native sidecar init container with RollingUpdate', sc((s) => (s.initContainers = [{ ...s.containers[0], name: 'init', restartPolicy: 'Always', podInjectPolicy: 'AfterAppContainer' }])),
      ['spec.updateStrategy: Required value: The initContainer in-place upgrade is not currently supported.']],
    ['a native sidecar init container with NotUpdate', sc((s) => {
      s.initContainers = [{ ...s.containers[0], name: 'init', restartPolicy: 'Always', podInjectPolicy: 'AfterAppContainer' }];
      s.updateStrategy.type = 'NotUpdate';
    }), []],

    // ---- resourcesPolicy (OpenKruise's sidecarset_validating_test.go cases, with the messages)
    ['resourcesPolicy together with resources', sc((s) => Object.assign(s.containers[0], {
      resources: { limits: { cpu: '100m', memory: '100Mi' } },
      resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: { limits: { cpu: 'cpu*50%' } } },
    })), ['spec[0].resourcesPolicy: Invalid value: v1beta1.ResourcesPolicy{TargetContainersMode:"sum", TargetContainersNameRegex:"", ResourcesExpr:v1beta1.ResourcesExpr{Limits:&v1beta1.ResourceExprLimits{CPU:"cpu*50%", Memory:""}, Requests:(*v1beta1.ResourceExprRequests)(nil)}}: resourcesPolicy and resources cannot be configured together']],
    ['resourcesPolicy without a regex (an unknown mode is the CRD\'s to refuse)', sc((s) => (s.containers[0].resourcesPolicy = { targetContainersMode: 'invalid', resourcesExpr: { limits: { cpu: 'cpu*50%' } } })),
      ['spec[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex']],
    ['resourcesPolicy on a plain init container', sc((s) => (s.initContainers = [{ name: 'init', image: 'busybox:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu*50%' } } } }])),
      ['spec[0].resourcesPolicy: Invalid value: v1beta1.ResourcesPolicy{TargetContainersMode:"sum", TargetContainersNameRegex:".*", ResourcesExpr:v1beta1.ResourcesExpr{Limits:&v1beta1.ResourceExprLimits{CPU:"cpu*50%", Memory:""}, Requests:(*v1beta1.ResourceExprRequests)(nil)}}: resourcesPolicy is only supported for containers with RestartPolicy Always']],
    ['resourcesPolicy on a native sidecar init container', sc((s) => {
      s.initContainers = [{ name: 'init', image: 'busybox:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', restartPolicy: 'Always', resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu*50%' } } } }];
      s.updateStrategy.type = 'NotUpdate';
    }), []],
    ['resourcesPolicy with neither limits nor requests, a bad regex', sc((s) => (s.containers[0].resourcesPolicy = { targetContainersMode: 'max', targetContainersNameRegex: '(', resourcesExpr: {} })), [
      'spec[0].resourcesPolicy.targetContainersNameRegex: Invalid value: "(": invalid regex pattern: Invalid regular expression: /(/: Unterminated group',
      'spec[0].resourcesPolicy.resourcesExpr: Invalid value: v1beta1.ResourcesExpr{Limits:(*v1beta1.ResourceExprLimits)(nil), Requests:(*v1beta1.ResourceExprRequests)(nil)}: at least one of limits or requests must be configured',
    ]],
    ['resourcesPolicy expressions that do not evaluate', sc((s) => (s.containers[0].resourcesPolicy = { targetContainersMode: 'max', targetContainersNameRegex: '.*', resourcesExpr: {
      limits: { cpu: 'cpu - 2', memory: 'cpu' }, requests: { cpu: 'max(cpu, 1', memory: 'memory / 0' },
    } })), [
      'spec[0].resourcesPolicy.resourcesExpr.limits.cpu: Invalid value: "cpu - 2": invalid expression: calculation result is negative: -1',
      'spec[0].resourcesPolicy.resourcesExpr.limits.memory: Invalid value: "cpu": invalid expression: undefined variable: cpu',
      'spec[0].resourcesPolicy.resourcesExpr.requests.cpu: Invalid value: "max(cpu, 1": invalid expression: parse error: syntax error at line 1, col 11',
      'spec[0].resourcesPolicy.resourcesExpr.requests.memory: Invalid value: "memory / 0": invalid expression: division by zero',
    ]],

    // ---- containers
    ['no containers at all', sc((s) => delete s.containers), ['spec: Required value: no initContainer or container defined for SidecarSet']],
    ['an unknown podInjectPolicy', sc((s) => (s.containers[0].podInjectPolicy = 'Middle')), ['spec.container.podInjectPolicy: Invalid value: "Middle": unsupported pod inject policy']],
    ['an unknown shareVolumePolicy', sc((s) => (s.containers[0].shareVolumePolicy = { type: 'sometimes' })),
      ['spec.container.shareVolumePolicy: Invalid value: v1alpha1.ShareVolumePolicy{Type:"sometimes"}: unsupported share volume policy']],
    ['transferEnv fieldRef without apiVersion', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['a']" } } }])),
      ['spec[0].transferEnv.fieldRef.apiVersion: Required value']],
    ['transferEnv fieldRef without fieldPath', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1' } } }])),
      ['spec[0].transferEnv.fieldRef.fieldPath: Required value']],
    ['transferEnv from metadata.name', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }])),
      ['spec[0].transferEnv.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: field label not supported: metadata.name']],
    ['transferEnv with another API version', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { apiVersion: 'v2', fieldPath: "metadata.labels['a']" } } }])),
      ["spec[0].transferEnv.fieldRef.fieldPath: Invalid value: \"metadata.labels['a']\": error converting fieldPath: unsupported pod version: v2"]],
    ['transferEnv from another subscripted field', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "spec.nodeSelector['a']" } } }])),
      ["spec[0].transferEnv.fieldRef.fieldPath: Invalid value: \"spec.nodeSelector['a']\": error converting fieldPath: field path not supported: spec.nodeSelector"]],
    ['transferEnv from an invalid label key', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['a b']" } } }])),
      [`spec[0].transferEnv.fieldRef: Invalid value: "a b": ${QUALIFIED}`]],
    ['transferEnv from an annotation, case-insensitive', sc((s) => (s.containers[0].transferEnv = [{ envName: 'X', sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['Example.com/Key']" } } }])), []],
    ['a HotUpgrade sidecar without empty image (§8: OpenKruise would break every pod)', sc((s) => (s.containers[0].upgradeStrategy = { upgradeType: 'HotUpgrade' })),
      ['spec.containers[0].upgradeStrategy.hotUpgradeEmptyImage: Required value: a HotUpgrade sidecar needs an empty image for its idle copy; without one every pod it is injected into is rejected']],
    ['a HotUpgrade native sidecar init container without empty image (paired like a container)', sc((s) => {
      s.updateStrategy.type = 'NotUpdate';
      s.initContainers = [
        { name: 'plain', image: 'busybox:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', upgradeStrategy: { upgradeType: 'HotUpgrade' } },
        { name: 'native', image: 'busybox:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', restartPolicy: 'Always', upgradeStrategy: { upgradeType: 'HotUpgrade' } },
      ];
    }), ['spec.initContainers[1].upgradeStrategy.hotUpgradeEmptyImage: Required value: a HotUpgrade sidecar needs an empty image for its idle copy; without one every pod it is injected into is rejected']],

    // ---- Kubernetes pod validation of containers and volumes
    ['a container without image', sc((s) => delete s.containers[0].image), ['spec.containers[0].image: Required value']],
    ['a mount of an undeclared volume', sc((s) => (s.containers[0].volumeMounts = [{ name: 'x', mountPath: '/x' }])), ['spec.containers[0].volumeMounts[0].name: Not found: "x"']],
    ['a mount of an invalid volume', sc((s) => ((s.volumes = [{ name: 'x', hostPath: { type: '' } }]), (s.containers[0].volumeMounts = [{ name: 'x', mountPath: '/x' }]))),
      ['spec.volumes[0].hostPath.path: Required value', 'spec.containers[0].volumeMounts[0].name: Not found: "x"']],
    ['a volume with two sources', sc((s) => (s.volumes = [{ name: 'x', emptyDir: {}, secret: { secretName: 's', defaultMode: 420 } }])),
      ['spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type']],
    ['an init container named like a container', sc((s) => (s.initContainers = [{ ...s.containers[0], podInjectPolicy: 'AfterAppContainer' }])),
      ['spec.initContainers[0].name: Duplicate value: "sidecar"']],
    ['only an init container named test (OpenKruise placeholder quirk)', sc((s) => ((s.initContainers = [{ ...s.containers[0], name: 'test' }]), delete s.containers)),
      ['spec.initContainers[0].name: Duplicate value: "test"']],
    ['an invalid env name', sc((s) => (s.containers[0].env = [{ name: '1X', value: 'v' }])),
      ["spec.containers[0].env[0].name: Invalid value: \"1X\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')"]],
    ['an invalid container name', sc((s) => (s.containers[0].name = 'Side_car')),
      ["spec.containers[0].name: Invalid value: \"Side_car\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['a startupProbe without successThreshold (not defaulted by OpenKruise)', sc((s) => (s.containers[0].startupProbe = { tcpSocket: { port: 80 } })),
      ['spec.containers[0].startupProbe.successThreshold: Invalid value: 0: must be 1']],
    ['requests above limits', sc((s) => (s.containers[0].resources = { limits: { cpu: '1' }, requests: { cpu: '2' } })),
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1']],
    ['an unsupported port protocol', sc((s) => (s.containers[0].ports = [{ containerPort: 80, protocol: 'HTTP' }])),
      ['spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],

    // ---- patchPodMetadata
    ['patches without a whitelist', sc((s) => (s.patchPodMetadata = [{ annotations: { a: '1' }, patchPolicy: 'Retain' }])),
      ['spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found']],
    ['patches without a whitelist, gate on', sc((s) => (s.patchPodMetadata = [{ annotations: { a: '1' }, patchPolicy: 'Retain' }])), [],
      ctx({ patchPodMetadataDefaultsAllowed: true })],
    ['a whitelist without rules for this set', sc((s) => (s.patchPodMetadata = [{ annotations: { a: '1' }, patchPolicy: 'Retain' }])),
      ['spec.patchPodMetadata: Required value: sidecarSet patch metadata annotation is not allowed'],
      ctx({ patchMetadataWhitelist: { found: true, whitelist: { rules: [{ selector: { matchLabels: { team: 'x' } }, allowedAnnotationKeyExprs: ['.*'] }] } } })],
    ['a key the whitelist does not allow', sc((s) => (s.patchPodMetadata = [{ annotations: { 'a.io/x': '1', b: '2' }, patchPolicy: 'Retain' }])),
      ['spec.patchPodMetadata: Required value: sidecarSet patch metadata annotation(b) is not allowed'],
      ctx({ patchMetadataWhitelist: { found: true, whitelist: { rules: [{ allowedAnnotationKeyExprs: ['^a\\.io/'] }] } } })],
    ['keys the whitelist allows (rule selector matches the set labels)', sc((s, m) => ((m.labels = { team: 'x' }), (s.patchPodMetadata = [{ annotations: { 'a.io/x': '1' }, patchPolicy: 'Retain' }]))), [],
      ctx({ patchMetadataWhitelist: { found: true, whitelist: { rules: [{ selector: { matchLabels: { team: 'x' } }, allowedAnnotationKeyExprs: ['a.io'] }] } } })],
    ['an unreadable whitelist', sc((s) => (s.patchPodMetadata = [{ annotations: { a: '1' }, patchPolicy: 'Retain' }])),
      ['spec.patchPodMetadata: Required value: bad whitelist'], ctx({ patchMetadataWhitelist: { error: 'bad whitelist' } })],
    ['a patch without annotations', sc((s) => (s.patchPodMetadata = [{ annotations: {}, patchPolicy: 'Retain' }])),
      ['spec.patchPodMetadata: Required value: no annotations defined for SidecarSet'], ctx({ patchPodMetadataDefaultsAllowed: true })],
    ['a patch without policy', sc((s) => (s.patchPodMetadata = [{ annotations: { a: '1' } }])),
      ['spec.patchPodMetadata: Required value: no patchPolicy defined for patchPodMetadata'], ctx({ patchPodMetadataDefaultsAllowed: true })],
    ['a key patched twice', sc((s) => (s.patchPodMetadata = [{ annotations: { a: '1' }, patchPolicy: 'Retain' }, { annotations: { a: '2' }, patchPolicy: 'Overwrite' }])),
      ['spec.patchPodMetadata: Required value: patch annotation[a] already exist'], ctx({ patchPodMetadataDefaultsAllowed: true })],
    ['an invalid annotation key', sc((s) => (s.patchPodMetadata = [{ annotations: { 'a b': '1' }, patchPolicy: 'Retain' }])),
      [`patchPodMetadata.annotations: Invalid value: "a b": ${QUALIFIED}`], ctx({ patchPodMetadataDefaultsAllowed: true })],
  ])('%s', (_name, s, want, c) => {
    expect(messages(s, c)).toEqual(want);
  });

  it.each<[string, V1ControllerRevision[], string[]]>([
    ['revisionName found', [revision('r1', {})], []],
    ['revisionName found but its data does not restore', [revision('r1', {}, 1, 'not json')], [
      'revision: Invalid value: "null": Cannot find specific ControllerRevision, err: sidecarset "sc": ControllerRevision "r1": data is not a JSON object',
    ]],
  ])('%s', (_name, revisions, want) => {
    const s = sc((spec) => (spec.injectionStrategy = { revision: { revisionName: 'r1', policy: 'Always' } }));
    expect(messages(s, ctx({ revisions }))).toEqual(want);
  });

  it('finds a customVersion among the set’s own revisions', () => {
    const s = sc((spec) => (spec.injectionStrategy = { revision: { customVersion: 'v1', policy: 'Partial' } }));
    expect(messages(s, ctx({ revisions: [revision('r1', { [SIDECARSET_NAME_LABEL]: 'sc', [CUSTOM_VERSION_LABEL]: 'v1' })] }))).toEqual([]);
  });
});

describe('validateSidecarSet on UPDATE', () => {
  it.each<[string, SidecarSet, SidecarSet, string[]]>([
    ['unchanged', sc(), sc(), []],
    ['a container added', sc((s) => s.containers.push({ ...s.containers[0], name: 'new' })), sc(),
      ['spec.containers.name: Invalid value: "new": container new is not found']],
    ['upgradeType changed', sc((s) => (s.containers[0].upgradeStrategy = { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' })), sc(),
      ['spec.containers.upgradeStrategy.upgradeType: Invalid value: "sidecar": container sidecar upgradeType is immutable']],
    ['upgradeType set where the old one was empty', sc(), sc((s) => (s.containers[0].upgradeStrategy = {})), []],
    ['a container removed', sc((s) => (s.initContainers = [{ ...s.containers[0], name: 'init' }]) && delete s.containers),
      sc((s) => (s.initContainers = [{ ...s.containers[0], name: 'init' }])), []],
  ])('%s', (_name, next, old, want) => {
    expect(messages(next, ctx({ oldSet: old }))).toEqual(want);
  });
});

describe('validateSidecarSet: conflicts with other SidecarSets', () => {
  const sidecarIn = (name: string, edit: (s: Obj) => void = () => {}) => other(name, (s) => edit(s));
  const conflict = 'spec.containers: Invalid value: "sidecar": container sidecar already exist in other';
  it.each<[string, SidecarSet, SidecarSet[], string[]]>([
    ['same container, same pods', sc(), [sidecarIn('other')], [conflict]],
    ['itself is skipped', sc(), [sc()], []],
    ['disjoint selectors', sc(), [sidecarIn('other', (s) => (s.selector = { matchLabels: { app: 'db' } }))], []],
    ['selectors on different keys overlap', sc(), [sidecarIn('other', (s) => (s.selector = { matchLabels: { tier: 'front' } }))], [conflict]],
    ['Exists on a key the other does not constrain overlaps (§8 fix)', sc(),
      [sidecarIn('other', (s) => (s.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'mesh', operator: 'Exists' }] }))], [conflict]],
    ['DoesNotExist on a key the other requires is disjoint', sc((s) => (s.selector = { matchLabels: { app: 'web', mesh: 'on' } })),
      [sidecarIn('other', (s) => (s.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'mesh', operator: 'DoesNotExist' }] }))], []],
    ['different namespaces', sc((s) => (s.namespace = 'prod')), [sidecarIn('other', (s) => (s.namespace = 'dev'))], []],
    ['a namespace the other’s selector does not match', sc((s) => (s.namespace = 'prod')),
      [sidecarIn('other', (s) => (s.namespaceSelector = { matchLabels: { env: 'dev' } }))], []],
    ['a namespace the other’s selector matches', sc((s) => (s.namespace = 'prod')),
      [sidecarIn('other', (s) => (s.namespaceSelector = { matchLabels: { env: 'prod' } }))], [conflict]],
    ['a namespaceSelector matching the other’s namespace (§8 fix)', sc((s) => (s.namespaceSelector = { matchLabels: { env: 'prod' } })),
      [sidecarIn('other', (s) => (s.namespace = 'prod'))], [conflict]],
    ['a namespaceSelector not matching the other’s namespace', sc((s) => (s.namespaceSelector = { matchLabels: { env: 'dev' } })),
      [sidecarIn('other', (s) => (s.namespace = 'prod'))], []],
    ['an unknown namespace never overlaps', sc((s) => (s.namespace = 'gone')), [sidecarIn('other', (s) => (s.namespaceSelector = { matchLabels: { env: 'prod' } }))], []],
    ['disjoint namespaceSelectors', sc((s) => (s.namespaceSelector = { matchLabels: { env: 'prod' } })),
      [sidecarIn('other', (s) => (s.namespaceSelector = { matchLabels: { env: 'dev' } }))], []],
    ['the last overlapping set is named', sc(), [sidecarIn('a'), sidecarIn('b')], ['spec.containers: Invalid value: "sidecar": container sidecar already exist in b']],
    ['init container against init container', sc((s) => (s.initContainers = [{ ...s.containers[0], name: 'init' }])),
      [sidecarIn('other', (s) => ((s.initContainers = [{ ...s.containers[0], name: 'init' }]), (s.containers[0].name = 'x')))],
      ['spec.containers: Invalid value: "init": container init already exist in other']],
    ['init container against container (§8 fix)', sc((s) => ((s.initContainers = [{ ...s.containers[0], name: 'init' }]), (s.containers[0].name = 'x'))),
      [sidecarIn('other', (s) => (s.containers[0].name = 'init'))], ['spec.containers: Invalid value: "init": container init already exist in other']],
    ['the same volume is fine', sc((s) => ((s.volumes = [{ name: 'v', emptyDir: {} }]), (s.containers[0].name = 'x'))),
      [sidecarIn('other', (s) => (s.volumes = [{ name: 'v', emptyDir: {} }]))], []],
    ['a different volume of the same name', sc((s) => ((s.volumes = [{ name: 'v', emptyDir: {} }]), (s.containers[0].name = 'x'))),
      [sidecarIn('other', (s) => (s.volumes = [{ name: 'v', hostPath: { path: '/v', type: '' } }]))],
      ['spec.volumes: Invalid value: "v": volume v is in conflict with sidecarset other']],
  ])('%s', (_name, s, others, want) => {
    expect(messages(s, ctx({ otherSets: others }))).toEqual(want);
  });

  const patching = (name: string, policy: string) => other(name, (s) => ((s.containers[0].name = `c-${name}`), (s.patchPodMetadata = [{ annotations: { k: '{}' }, patchPolicy: policy }])));
  it.each<[string, string, string, string[]]>([
    ['Overwrite against MergePatchJson', 'Overwrite', 'MergePatchJson', ['spec.patchPodMetadata: Invalid value: "k": annotation k is in conflict with sidecarset other']],
    ['MergePatchJson against Overwrite', 'MergePatchJson', 'Overwrite', ['spec.patchPodMetadata: Invalid value: "k": annotation k is in conflict with sidecarset other']],
    ['MergePatchJson against MergePatchJson', 'MergePatchJson', 'MergePatchJson', []],
    ['Retain never conflicts', 'Retain', 'Overwrite', []],
    ['nor does another Retain', 'Overwrite', 'Retain', []],
  ])('%s', (_name, mine, theirs, want) => {
    const s = patching('sc', mine);
    expect(messages(s, ctx({ otherSets: [patching('other', theirs)], patchPodMetadataDefaultsAllowed: true }))).toEqual(want);
  });

  it('conflicts are only checked when everything else is valid', () => {
    expect(messages(sc((s) => delete s.containers[0].image), ctx({ otherSets: [sidecarIn('other')] }))).toEqual(['spec.containers[0].image: Required value']);
  });
});

describe('isSelectorOverlapping', () => {
  it.each<[string, object, object, boolean]>([
    ['same label', { matchLabels: { a: 'b' } }, { matchLabels: { a: 'b' } }, true],
    ['different values', { matchLabels: { a: 'b' } }, { matchLabels: { a: 'c' } }, false],
    ['In sharing a value', { matchExpressions: [{ key: 'a', operator: 'In', values: ['b', 'c'] }] }, { matchLabels: { a: 'c' } }, true],
    ['In sharing none', { matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] }, { matchExpressions: [{ key: 'a', operator: 'In', values: ['c'] }] }, false],
    ['NotIn covering every allowed value', { matchLabels: { a: 'b' } }, { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['b', 'x'] }] }, false],
    ['NotIn leaving a value', { matchExpressions: [{ key: 'a', operator: 'In', values: ['b', 'c'] }] }, { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['b'] }] }, true],
    ['Exists and a value', { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { matchLabels: { a: 'b' } }, true],
    ['Exists on an unconstrained key', { matchLabels: { a: 'b' } }, { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, true],
    ['DoesNotExist against a value', { matchLabels: { a: 'b' } }, { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, false],
  ])('%s', (_name, a, b, want) => {
    expect(isSelectorOverlapping(a, b)).toBe(want);
    expect(isSelectorOverlapping(b, a)).toBe(want);
  });
});

describe('parsePatchMetadataWhitelist', () => {
  it.each<[string, Record<string, string> | undefined, unknown]>([
    ['no ConfigMap', undefined, { found: false }],
    ['no key', { other: 'x' }, { found: false }],
    ['rules', { SidecarSet_PatchPodMetadata_WhiteList: '{"rules":[{"allowedAnnotationKeyExprs":["a"]}]}' }, { found: true, whitelist: { rules: [{ allowedAnnotationKeyExprs: ['a'] }] } }],
    ['null', { SidecarSet_PatchPodMetadata_WhiteList: 'null' }, { found: true, whitelist: {} }],
    ['not JSON', { SidecarSet_PatchPodMetadata_WhiteList: '{' }, { error: expect.stringMatching(/^invalid SidecarSet_PatchPodMetadata_WhiteList in ConfigMap kruise-configuration: /) }],
    ['not an object', { SidecarSet_PatchPodMetadata_WhiteList: '[1]' }, { error: expect.stringMatching(/expected \{"rules":\[…\]\}/) }],
  ])('%s', (_name, data, want) => {
    expect(parsePatchMetadataWhitelist(data)).toEqual(want);
  });
});
