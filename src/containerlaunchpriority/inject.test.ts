import { describe, expect, it } from 'vitest';
import { atoi, injectLaunchPriority, type LaunchPod } from './inject.js';

const barrier = (pod: string, key: string) => ({ name: 'KRUISE_CONTAINER_BARRIER', valueFrom: { configMapKeyRef: { name: `${pod}-barrier`, key } } });
const pod = (containers: { name: string; env?: { name: string; value?: string }[] }[], annotations?: Record<string, string>, meta: Record<string, string> = { name: 'p' }): LaunchPod => ({
  metadata: { ...meta, ...(annotations ? { annotations } : {}) }, spec: { containers },
});

describe('injectLaunchPriority', () => {
  it('Ordered: 0, -1, -2 in container order, after any env already there', () => {
    const out = injectLaunchPriority(pod([{ name: 'a', env: [{ name: 'X', value: '1' }] }, { name: 'b' }, { name: 'c' }], { 'apps.kruise.io/container-launch-priority': 'Ordered' }), 'xxxxx');
    expect('pod' in out && out.pod.spec?.containers?.map((c) => c.env)).toEqual([[{ name: 'X', value: '1' }, barrier('p', 'p_0')], [barrier('p', 'p_-1')], [barrier('p', 'p_-2')]]);
  });

  it('KRUISE_CONTAINER_PRIORITY values, unset counting as 0; only when they differ', () => {
    const out = injectLaunchPriority(pod([{ name: 'a', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '100' }] }, { name: 'b' }]), 'xxxxx');
    expect('pod' in out && out.pod.spec?.containers?.map((c) => c.env?.at(-1))).toEqual([barrier('p', 'p_100'), barrier('p', 'p_0')]);
    expect(injectLaunchPriority(pod([{ name: 'a', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '5' }] }, { name: 'b', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '5' }] }]), 'x')).toEqual({ skip: true });
    expect(injectLaunchPriority(pod([{ name: 'a' }, { name: 'b' }]), 'x')).toEqual({ skip: true });
  });

  it('a single container is left alone, even Ordered', () => {
    expect(injectLaunchPriority(pod([{ name: 'a' }], { 'apps.kruise.io/container-launch-priority': 'Ordered' }), 'x')).toEqual({ skip: true });
  });

  it('names a generateName pod, since the ConfigMap is named after it', () => {
    const out = injectLaunchPriority(pod([{ name: 'a' }, { name: 'b' }], { 'apps.kruise.io/container-launch-priority': 'Ordered' }, { generateName: 'web-' }), 'k2x9z');
    expect('pod' in out && out.pod.metadata?.name).toBe('web-k2x9z');
    expect('pod' in out && out.pod.spec?.containers?.[0]?.env).toEqual([barrier('web-k2x9z', 'p_0')]);
  });

  it("a value that is not an integer: strconv's error", () => {
    expect(injectLaunchPriority(pod([{ name: 'a', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: 'high' }] }, { name: 'b' }]), 'x')).toEqual({ error: 'strconv.Atoi: parsing "high": invalid syntax' });
    expect(atoi('9223372036854775808')).toBe('strconv.Atoi: parsing "9223372036854775808": value out of range');
    expect(atoi('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(atoi('+7')).toBe(7n);
  });
});
