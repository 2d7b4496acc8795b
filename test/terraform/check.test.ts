import { describe, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { parseScenario } from '../../sim/loops';
import { InputError } from '../../sim/scenario/errors';
import { readYamlFile } from '../../sim/scenario/load';
import { parseTraceText } from '../../sim/trace-schema';
import { checkFile, movesAt, verdictOf, verdictsOf } from '../check/check-run';

const CRASHED = 'scenarios/terraform-check-crashed-lock.yaml';
const PROTECTED = 'scenarios/terraform-check-protected-replace.yaml';
const ORPHAN = 'scenarios/terraform-check-orphan-name.yaml';

const check = (file: string, withinPeriods?: number) => checkFile(file, withinPeriods ? { withinPeriods } : {});
const verdicts = verdictsOf;
const verdict = verdictOf;
const moves = movesAt;

describe(`loopscope check ${CRASHED}`, () => {
  const run = check(CRASHED);

  it('explores the whole bounded space: 419 distinct states', () => {
    expect(run.result.stats).toMatchObject({ complete: true, distinct: 419, depth: 35 });
    expect(run.alphabet.map((m) => m.label)).toEqual([
      'kill terraform',
      'terraform force-unlock',
      'cloud fails the next 1 create of aws_security_group.app',
    ]);
  });

  it('every verdict, and what the configuration promises', () => {
    expect(verdicts(run)).toEqual({
      'state-writes-locked-and-ordered': 'holds',
      'apply-respects-dependencies': 'holds',
      'failure-stops-dependents': 'holds',
      'prevent-destroy-honoured': 'holds',
      'create-before-destroy-honoured': 'holds',
      'reaches-converged': 'holds',
      'lock-error': 'holds',
      'create-failed': 'holds',
      converges: 'violated',
      'no-orphans': 'violated',
      'converges-after-force-unlock': 'holds',
    });
    expect(run.promises).toContain('converges');
    expect(run.promises).toContain('converges-after-force-unlock');
    expect(run.promises).not.toContain('no-orphans');
    expect(verdict(run, 'converges-after-force-unlock').settleMs).toBe(1_243_300);
    expect(verdict(run, 'converges-after-force-unlock').property.withinMs).toBe(1_800_000);
  });

  it('converges: killed right after it took the lock, the lock is never released (1 step)', () => {
    const v = verdict(run, 'converges');
    expect(v.path).toHaveLength(1);
    expect(moves(run, v.path)).toEqual(['0: kill terraform']);
    expect(v.settleMs).toBe(Infinity);
    const trace = run.counterexamples.find((c) => c.property === 'converges')!.trace;
    expect(trace.frames.filter((f) => f.note?.includes('Error acquiring the state lock')).length).toBeGreaterThanOrEqual(3);
    expect(trace.frames.at(-1)!.note).toMatch(/✗ converges/);
  });

  it('no-orphans: killed while the security group is being created (5 steps) — the object is never in the state', () => {
    const v = verdict(run, 'no-orphans');
    expect(v.path).toHaveLength(5);
    expect(moves(run, v.path)).toEqual(['4: kill terraform']);
    const trace = run.counterexamples.find((c) => c.property === 'no-orphans')!.trace;
    expect(trace.frames.at(-1)!.note).toMatch(/✗ no-orphans/);
  });

  it('the witnesses: a run fails on the lock after a kill (3 steps); a create fails (6 steps)', () => {
    expect(moves(run, verdict(run, 'lock-error').path)).toEqual(['1: kill terraform']);
    expect(verdict(run, 'lock-error').path).toHaveLength(3);
    expect(moves(run, verdict(run, 'create-failed').path)).toEqual(['3: cloud fails the next 1 create of aws_security_group.app']);
    expect(verdict(run, 'create-failed').path).toHaveLength(6);
  });

  it('counterexamples are Runner traces the lab loads (its trace schema accepts them)', () => {
    expect(run.counterexamples.map((c) => c.property).sort()).toEqual(['converges', 'no-orphans']);
    for (const { trace } of run.counterexamples) {
      expect(trace.loop).toBe('terraform');
      const parsed = parseTraceText(JSON.stringify(trace));
      expect(parsed.ok ? 'ok' : parsed.error).toBe('ok');
    }
  });

  it('a bound K shorter than the repair takes is refuted', () => {
    const tight = check(CRASHED, 1);
    expect(verdict(tight, 'converges-after-force-unlock').status).toBe('violated');
    expect(verdict(tight, 'converges-after-force-unlock').settleMs).toBeGreaterThan(600_000);
  });
});

describe(`loopscope check ${PROTECTED}`, () => {
  const run = check(PROTECTED);

  it('explores the whole bounded space: 1028 distinct states', () => {
    expect(run.result.stats).toMatchObject({ complete: true, distinct: 1028, depth: 45 });
  });

  it('every verdict: prevent_destroy and create_before_destroy are honoured; the removed block loses the data; no convergence against a refused plan', () => {
    expect(verdicts(run)).toEqual({
      'state-writes-locked-and-ordered': 'holds',
      'apply-respects-dependencies': 'holds',
      'failure-stops-dependents': 'holds',
      'prevent-destroy-honoured': 'holds',
      'create-before-destroy-honoured': 'holds',
      'never-destroys-data': 'violated',
      'reaches-converged': 'holds',
      'replaced-create-first': 'holds',
      'plan-refused': 'holds',
      converges: 'violated',
      'no-orphans': 'holds',
    });
    expect(run.promises).not.toContain('converges');
    expect(run.promises).not.toContain('never-destroys-data');
    expect(run.promises).toContain('prevent-destroy-honoured');
    expect(run.promises).toContain('create-before-destroy-honoured');
  });

  it('never-destroys-data: data written, the protected block removed, the next run destroys the database (19 steps)', () => {
    const v = verdict(run, 'never-destroys-data');
    expect(v.path).toHaveLength(19);
    expect(moves(run, v.path)).toEqual(['11: write 50 GB to aws_db_instance.orders', `12: ${run.alphabet[3]!.label}`]);
    expect(run.alphabet[3]!.label).toBe(
      'edit configuration: aws_instance.app{ami=ami-0a1b2c3d,instance_type=t3.small create_before_destroy}',
    );
    const trace = run.counterexamples.find((c) => c.property === 'never-destroys-data')!.trace;
    expect(trace.frames.some((f) => f.note?.includes('aws_db_instance.orders will be destroyed (not in configuration)'))).toBe(true);
  });

  it('converges: the engine changed in the console, every plan is refused by prevent_destroy (7 steps)', () => {
    const v = verdict(run, 'converges');
    expect(v.path).toHaveLength(7);
    expect(moves(run, v.path)).toEqual(['6: console edit aws_db_instance.orders engine=postgres']);
    expect(v.settleMs).toBe(Infinity);
    const trace = run.counterexamples.find((c) => c.property === 'converges')!.trace;
    expect(trace.frames.filter((f) => f.note?.includes('Instance cannot be destroyed')).length).toBeGreaterThanOrEqual(3);
  });

  it('the witnesses: a create-first replacement after the AMI edit (19 steps), a refused plan after the drift (15 steps)', () => {
    expect(moves(run, verdict(run, 'replaced-create-first').path)).toEqual([`11: ${run.alphabet[2]!.label}`]);
    expect(verdict(run, 'replaced-create-first').path).toHaveLength(19);
    expect(moves(run, verdict(run, 'plan-refused').path)).toEqual(['13: console edit aws_db_instance.orders engine=postgres']);
    expect(verdict(run, 'plan-refused').path).toHaveLength(15);
  });
});

describe(`loopscope check ${ORPHAN}`, () => {
  const run = check(ORPHAN);

  it('explores the whole bounded space: 119 distinct states', () => {
    expect(run.result.stats).toMatchObject({ complete: true, distinct: 119, depth: 26 });
    expect(run.alphabet.map((m) => m.label)).toEqual(['kill terraform', 'terraform force-unlock']);
  });

  it('every verdict: the repair after force-unlock is refuted here (a bucket name is its identity), and not promised', () => {
    expect(verdicts(run)).toEqual({
      'state-writes-locked-and-ordered': 'holds',
      'apply-respects-dependencies': 'holds',
      'failure-stops-dependents': 'holds',
      'prevent-destroy-honoured': 'holds',
      'create-before-destroy-honoured': 'holds',
      'never-destroys-data': 'holds',
      'reaches-converged': 'holds',
      'lock-error': 'holds',
      'create-failed': 'holds',
      converges: 'violated',
      'no-orphans': 'violated',
      'converges-after-force-unlock': 'violated',
    });
    expect(run.promises).toContain('converges');
    expect(run.promises).not.toContain('converges-after-force-unlock');
  });

  it('converges-after-force-unlock: killed while the bucket is created, force-unlocked (7 steps); every later create fails', () => {
    const v = verdict(run, 'converges-after-force-unlock');
    expect(v.path).toHaveLength(7);
    expect(moves(run, v.path)).toEqual(['4: kill terraform', '6: terraform force-unlock']);
    expect(v.settleMs).toBe(Infinity);
    const trace = run.counterexamples.find((c) => c.property === 'converges-after-force-unlock')!.trace;
    expect(trace.frames.filter((f) => f.note?.includes('BucketAlreadyOwnedByYou')).length).toBeGreaterThanOrEqual(2);
    const parsed = parseTraceText(JSON.stringify(trace));
    expect(parsed.ok ? 'ok' : parsed.error).toBe('ok');
  });

  it('the failed create stops its dependent: the witness is a run after the force-unlock (14 steps)', () => {
    expect(moves(run, verdict(run, 'create-failed').path)).toEqual(['4: kill terraform', '7: terraform force-unlock']);
    expect(verdict(run, 'create-failed').path).toHaveLength(14);
  });
});

describe('check scenarios the explorer cannot treat are rejected, naming file, field and expectation', () => {
  const base = readYamlFile(CRASHED) as Record<string, unknown> & { timeline: unknown[]; resources: unknown[] };
  const rejected = (doc: object) => {
    const { entry, scenario } = parseScenario('bad.yaml', 'bad', doc);
    try {
      checkScenario(entry, scenario);
      return 'accepted';
    } catch (e) {
      return e instanceof InputError ? e.message : `not an InputError: ${String(e)}`;
    }
  };
  it('more than 8 moves', () => {
    const timeline = Array.from({ length: 9 }, (_, i) => ({
      at: `${i + 1}m`,
      drift: { address: 'aws_instance.app', set: { instance_type: `t3.x${i}` } },
    }));
    expect(rejected({ ...base, timeline })).toBe(
      'bad.yaml: timeline: expected at most 8 entries for check (each is a move the environment may make at any instant), got 9',
    );
  });
  it('a mode change', () => {
    expect(rejected({ ...base, timeline: [{ at: '1m', mode: 'plan' }] })).toBe(
      'bad.yaml: timeline[0].mode: expected no mode change for check: what a configuration promises depends on its mode',
    );
  });
  it('a create that always fails', () => {
    expect(rejected({ ...base, timeline: [{ at: '1m', failCreate: { address: 'aws_instance.app', times: 'always' } }] })).toBe(
      'bad.yaml: timeline[0].failCreate.times: expected a number for check, not "always": the bound K counts the runs each failure costs',
    );
  });
  it('more than 4 resources', () => {
    const resources = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ resource: `aws_s3_bucket.${n}`, bucket: n }));
    expect(rejected({ ...base, resources, timeline: [] })).toBe(
      'bad.yaml: resources: expected at most 4 resources for check (each adds objects, calls and orderings), got 5',
    );
  });
  it('the shipped check scenarios are accepted', () => {
    expect(rejected(base)).toBe('accepted');
  });
});
