// CloudFormation's short-form tags (!Ref, !GetAtt, !Sub …) for the `yaml` parser, each read as its
// long form ({ Ref }, { 'Fn::GetAtt' }, { 'Fn::Sub' } …), so tests can follow the template's references.
import type { CollectionTag, ScalarTag } from 'yaml';

const FNS = ['Base64', 'Cidr', 'FindInMap', 'GetAZs', 'If', 'ImportValue', 'Join', 'Not', 'Equals', 'And', 'Or', 'Select', 'Split', 'Sub', 'Transform', 'Contains', 'ValueOf'];

const long = (tag: string, value: unknown): unknown => {
  if (tag === 'Ref') return { Ref: value };
  if (tag === 'Condition') return { Condition: value };
  if (tag === 'GetAtt') return { 'Fn::GetAtt': typeof value === 'string' ? value.split('.', 2) : value };
  return { [`Fn::${tag}`]: value };
};

export const CFN_TAGS: (ScalarTag | CollectionTag)[] = ['Ref', 'Condition', 'GetAtt', ...FNS].flatMap((name) => [
  { tag: `!${name}`, resolve: (s: string) => long(name, s) } as ScalarTag,
  { tag: `!${name}`, collection: 'seq', resolve: (seq) => long(name, seq.toJSON()) } as CollectionTag,
  { tag: `!${name}`, collection: 'map', resolve: (map) => long(name, map.toJSON()) } as CollectionTag,
]);
