import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../sim/loops/registry';
import { InputError, InputErrors } from '../../sim/scenario/errors';

function problem(yaml: string): string {
  try {
    parseScenarioText('bad.yaml', 'bad', yaml);
  } catch (e) {
    if (e instanceof InputError || e instanceof InputErrors) return e.message;
    throw e;
  }
  throw new Error('expected an InputError');
}

const base = 'loop: kubernetes\ncontroller: replicaset\n';

describe('kubernetes scenarios: bad input names the file, the field and the expectation', () => {
  it('an unknown controller', () => {
    expect(problem('loop: kubernetes\ncontroller: nope\n')).toMatch(/^bad\.yaml: controller: expected one of replicaset, deployment/);
  });
  it('an unknown kind in objects', () => {
    expect(problem(`${base}objects:\n  - { kind: Widget, metadata: { name: w } }\n`)).toMatch(
      /bad\.yaml: objects\[0\]\.kind: expected one of .*Application/,
    );
  });
  it('a bad field inside a manifest', () => {
    expect(
      problem(
        `${base}objects:\n  - kind: ReplicaSet\n    metadata: { name: web }\n    spec: { replicas: -1, selector: { matchLabels: { a: b } }, template: { metadata: { labels: { a: b } }, spec: { containers: [{ name: c, image: i }] } } }\n`,
      ),
    ).toMatch(/bad\.yaml: objects\[0\]\.spec\.replicas: expected a whole number ≥ 0/);
  });
  it('a CPU quantity that is not one', () => {
    expect(problem(`${base}cluster:\n  nodes: [{ name: n1, cpu: lots }]\n`)).toMatch(
      /bad\.yaml: cluster\.nodes\[0\]\.cpu: expected a CPU quantity/,
    );
  });
  it('a timeline entry naming a node that does not exist', () => {
    expect(problem(`${base}timeline:\n  - { at: 1m, nodeFail: node-9 }\n`)).toMatch(
      /bad\.yaml: timeline\[0\]\.nodeFail: expected a node of the cluster/,
    );
  });
  it('a timeline entry with two changes', () => {
    expect(problem(`${base}timeline:\n  - { at: 1m, failWrites: 1, restartController: true }\n`)).toMatch(
      /bad\.yaml: timeline\[0\]: expected "at" and exactly one change/,
    );
  });
  it('the focal controller listed again as a built-in', () => {
    expect(problem(`${base}builtins: [replicaset]\n`)).toMatch(/bad\.yaml: builtins: expected the built-in controllers not to include/);
  });
});
