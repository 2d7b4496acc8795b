// Which lifecycle events wake the real loop: our own acts' events are expected and
// used up once; an outsider's event on the same pod right after our act still wakes. The event
// shapes are what Incus 6.0.4 sent here (`incus monitor --type=lifecycle --format=json`).
import { describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../real/lifecycle-events';
import { WAKING_ACTIONS, eventInstances } from '../../real/lifecycle-events';
import { OWN_EVENT_GRACE_MS, OwnEvents } from '../../real/own-events';

const ev = (action: string, source: string, context?: Record<string, unknown>): LifecycleEvent => ({
  type: 'lifecycle',
  metadata: { action, source, ...(context ? { context } : {}) },
});

describe('lifecycle events', () => {
  it("names the instance from source, with a project suffix and a rename's old name", () => {
    expect(eventInstances(ev('instance-deleted', '/1.0/instances/pod-a1'))).toEqual(['pod-a1']);
    expect(eventInstances(ev('instance-stopped', '/1.0/instances/pod-a1?project=lab'))).toEqual(['pod-a1']);
    expect(eventInstances(ev('instance-renamed', '/1.0/instances/pod-b', { old_name: 'pod-a' }))).toEqual(['pod-b', 'pod-a']);
    expect(eventInstances(ev('profile-updated', '/1.0/profiles/default'))).toEqual([]);
  });

  it('wakes on changes an observe can see, not on exec/console/file access', () => {
    for (const a of [
      'instance-created',
      'instance-started',
      'instance-stopped',
      'instance-shutdown',
      'instance-deleted',
      'instance-updated',
      'instance-renamed',
    ])
      expect(WAKING_ACTIONS.has(a)).toBe(true);
    for (const a of ['instance-exec', 'instance-console', 'instance-file-retrieved', 'instance-ready'])
      expect(WAKING_ACTIONS.has(a)).toBe(false);
  });
});

describe('OwnEvents', () => {
  it("our create's events are ours once; an outside stop and delete right after are not", () => {
    let t = 0;
    const own = new OwnEvents(() => t);
    own.begin('p1', 'create');
    expect(own.acting('p1')).toBe(true);
    expect(own.consume('p1', 'instance-created')).toBe(true);
    t = 300;
    own.end('p1');
    t = 320;
    expect(own.consume('p1', 'instance-started')).toBe(true); // trailing, after the create returned
    t = 1_000; // an operator's forced delete 1 s later (the old 3 s window swallowed these)
    expect(own.consume('p1', 'instance-stopped')).toBe(false);
    expect(own.consume('p1', 'instance-deleted')).toBe(false);
  });

  it('a second identical event is not ours (each expectation is used up once)', () => {
    const own = new OwnEvents(() => 0);
    own.begin('p1', 'create');
    own.end('p1');
    expect(own.consume('p1', 'instance-started')).toBe(true);
    expect(own.consume('p1', 'instance-started')).toBe(false);
  });

  it('our delete covers a clean or a forced stop and the delete; unused expectations expire after the grace', () => {
    let t = 0;
    const own = new OwnEvents(() => t);
    own.begin('p2', 'delete');
    expect(own.consume('p2', 'instance-shutdown')).toBe(true);
    own.end('p2');
    expect(own.consume('p2', 'instance-deleted')).toBe(true);
    own.begin('p3', 'delete');
    own.end('p3');
    t = OWN_EVENT_GRACE_MS + 1;
    expect(own.consume('p3', 'instance-stopped')).toBe(false);
    expect(own.acting('p3')).toBe(false);
  });

  it('expectations do not expire while an act is still open (a slow delete inside a failed create)', () => {
    let t = 0;
    const own = new OwnEvents(() => t);
    own.begin('p4', 'create');
    own.begin('p4', 'delete');
    own.end('p4');
    t = OWN_EVENT_GRACE_MS * 10;
    expect(own.consume('p4', 'instance-deleted')).toBe(true);
    own.end('p4');
    expect(own.acting('p4')).toBe(false);
  });
});
