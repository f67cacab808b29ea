import { describe, expect, it } from 'vitest';
import { answerConversionReview } from './review.js';

const review = (request: unknown) => JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request });
const sts = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2 } };

describe('answerConversionReview', () => {
  it('converts every object and echoes the uid', () => {
    const out = answerConversionReview(review({ uid: 'u1', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [sts, { ...sts, metadata: { name: 'db' } }] }));
    expect(out.response.uid).toBe('u1');
    expect(out.response.result).toEqual({ status: 'Success' });
    expect(out.response.convertedObjects).toEqual([{ ...sts, apiVersion: 'apps.kruise.io/v1alpha1' }, { ...sts, apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'db' } }]);
  });

  it.each<[string, string, RegExp]>([
    ['not JSON', '{', /request body is not JSON/],
    ['another review version', JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: { uid: 'u' } }), /ConversionReview of apiextensions.k8s.io\/v1/],
    ['no uid', review({ desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [] }), /no request.uid/],
    ['no desired version', review({ uid: 'u', objects: [] }), /no request.desiredAPIVersion/],
    ['no objects', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1alpha1' }), /no request.objects/],
    ['a version we do not serve', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v2', objects: [sts] }), /desiredAPIVersion: apiVersion "apps.kruise.io\/v2" is not/],
    ['a kind without versions', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [{ ...sts, kind: 'CloneSet' }] }), /objects\[0\]: object CloneSet default\/web: kind must be one of/],
    ['an object that is not an object', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [sts, 42] }), /objects\[1\]: object: expected a JSON object, got number/],
    ['a spec that is not an object', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [{ ...sts, spec: [] }] }), /spec must be an object/],
    ['labels that are not strings', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [{ ...sts, kind: 'SidecarSet', metadata: { name: 's', labels: { a: 1 } } }] }), /metadata.labels must map strings to strings/],
    ['an apiVersion of another group', review({ uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [{ ...sts, apiVersion: 'apps/v1' }] }), /apiVersion "apps\/v1" is not/],
  ])('answers %s with a Failure, not a crash', (_name, body, message) => {
    const out = answerConversionReview(body);
    expect(out.kind).toBe('ConversionReview');
    expect(out.response.convertedObjects).toEqual([]);
    expect(out.response.result.status).toBe('Failure');
    expect(out.response.result).toMatchObject({ message: expect.stringMatching(message) });
  });
});
