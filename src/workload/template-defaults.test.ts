import { describe, expect, it } from 'vitest';
import { defaultedTemplateSpec } from './template-defaults.js';

describe('defaultedTemplateSpec (OpenKruise SetDefaultPodSpec)', () => {
  it('fills the pod spec and container defaults, with imagePullPolicy Always for containers whatever the tag', () => {
    const spec = { containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }], initContainers: [{ name: 'init', image: 'busybox:1.36' }], volumes: [{ name: 'cfg', configMap: { name: 'c' } }] };
    expect(defaultedTemplateSpec(spec)).toEqual({
      containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }], imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
      initContainers: [{ name: 'init', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
      volumes: [{ name: 'cfg', configMap: { name: 'c', defaultMode: 420 } }],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    });
  });

  it('keeps what is set, and does not touch its input', () => {
    const spec = { containers: [{ name: 'app', image: 'nginx', imagePullPolicy: 'Never' }], dnsPolicy: 'Default', terminationGracePeriodSeconds: 0 };
    const out = defaultedTemplateSpec(spec);
    expect(out).toMatchObject({ dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, containers: [{ imagePullPolicy: 'Never' }] });
    expect(spec).toEqual({ containers: [{ name: 'app', image: 'nginx', imagePullPolicy: 'Never' }], dnsPolicy: 'Default', terminationGracePeriodSeconds: 0 });
  });
});
