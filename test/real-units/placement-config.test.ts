// hpa.yaml's `placement` (real/placement.ts): what each form becomes, and a one-line error naming
// the file and field for anything else.
import { describe, expect, it } from 'vitest';
import { parseRealHpaConfig } from '../../real/hpa-config';

const parse = (placement: unknown) => parseRealHpaConfig('hpa.yaml', { name: 'web', placement });
const error = (placement: unknown) => {
  try {
    parse(placement);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('no error');
};

describe('hpa.yaml placement', () => {
  it('absent or scheduler: no target (the cluster scheduler decides)', () => {
    expect(parseRealHpaConfig('hpa.yaml', { name: 'web' }).settings.placement).toBeUndefined();
    expect(parse('scheduler').settings.placement).toBeUndefined();
  });

  it('spread, a member, a cluster group', () => {
    expect(parse('spread').settings.placement).toEqual({ kind: 'spread' });
    expect(parse({ target: 'm2' }).settings.placement).toEqual({ kind: 'target', target: 'm2' });
    expect(parse({ target: '@gpu' }).settings.placement).toEqual({ kind: 'target', target: '@gpu' });
  });

  it('anything else names the file, the field and what is expected', () => {
    expect(error('random')).toBe('hpa.yaml: placement: expected scheduler, spread, or { target: <cluster member name, or @group> }');
    expect(error({ target: 'a/b' })).toMatch(
      /^hpa\.yaml: placement\.target: expected a cluster member name, or @ and a cluster group name/,
    );
    expect(error({ target: 3 })).toMatch(/^hpa\.yaml: placement\.target: expected a cluster member name/);
    expect(error({ target: 'm2', spread: true })).toMatch(/^hpa\.yaml: placement\.spread: unknown key/);
  });
});
