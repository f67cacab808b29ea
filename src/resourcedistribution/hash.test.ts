import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { hashResource } from './hash.js';

const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo', labels: { b: '2', a: '1' } }, data: { 'game.properties': 'lives=3\n', ui: 'x' } };

describe('hashResource', () => {
  it('is sha256 hex of the canonical JSON', () => {
    expect(hashResource(cm)).toBe(createHash('sha256').update(canonicalJson(cm)).digest('hex'));
    expect(hashResource(cm)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order', () => {
    const reordered = { data: { ui: 'x', 'game.properties': 'lives=3\n' }, metadata: { labels: { a: '1', b: '2' }, name: 'game-demo' }, kind: 'ConfigMap', apiVersion: 'v1' };
    expect(hashResource(reordered)).toBe(hashResource(cm));
  });

  it('matches the hashcode OpenKruise wrote for its documented example (openkruise.io user manual, ResourceDistribution)', () => {
    const gameDemo = {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' },
      data: {
        'game.properties': 'enemy.types=aliens,monsters\nplayer.maximum-lives=5\n',
        player_initial_lives: '3',
        ui_properties_file_name: 'user-interface.properties',
        'user-interface.properties': 'color.good=purple\ncolor.bad=yellow\nallow.textmode=true\n',
      },
    };
    expect(hashResource(gameDemo)).toBe('0821a13321b2c76b5bd63341a0d97fb46bfdbb2f914e2ad6b613d10632fa4b63');
  });

  it.each<[string, unknown]>([
    ['data value', { ...cm, data: { ...cm.data, ui: 'y' } }],
    ['a label', { ...cm, metadata: { ...cm.metadata, labels: { a: '1' } } }],
    ['the name', { ...cm, metadata: { ...cm.metadata, name: 'other' } }],
  ])('changes with %s', (_name, changed) => {
    expect(hashResource(changed)).not.toBe(hashResource(cm));
  });
});
