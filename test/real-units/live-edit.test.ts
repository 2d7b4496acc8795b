// A live edit of hpa.yaml that changes the loop's identity is refused with how to hand over; a
// changed `name` also names the rename command, with the file and the new name filled in.
import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../sim/scenario/errors';
import { parseLiveEdit, parseRealHpaConfig } from '../../real/hpa-config';

const doc = (name: string, namePrefix = 'web-') => ({ HPA: { minPods: 1, maxPods: 3, memoryThreshold: 50 }, name, namePrefix });
const current = parseRealHpaConfig('hpa.yaml', doc('web'));

function refusal(next: object): string {
  try {
    parseLiveEdit(current, next);
  } catch (e) {
    if (e instanceof InputErrors) return e.message;
    throw e;
  }
  throw new Error('the edit was applied');
}

describe('live edits of identity fields', () => {
  it('a new name is refused, naming the hand-over and the rename command for this file and name', () => {
    const message = refusal(doc('web-v2'));
    expect(message).toContain('hpa.yaml: name: expected "web": name cannot change while the loop runs');
    expect(message).toContain('To hand over: stop loopscope, edit the file, start it again');
    expect(message).toContain('`loopscope real rename --config hpa.yaml --to web-v2`');
  });

  it("a new namePrefix is refused with the hand-over only (a rename keeps the pods' names)", () => {
    const message = refusal(doc('web', 'api-'));
    expect(message).toContain('namePrefix cannot change while the loop runs');
    expect(message).not.toContain('real rename');
  });

  it('an edit that keeps the identity and changes a bound applies', () => {
    expect(parseLiveEdit(current, { ...doc('web'), HPA: { minPods: 2, maxPods: 3, memoryThreshold: 50 } })?.config.minPods).toBe(2);
  });
});
