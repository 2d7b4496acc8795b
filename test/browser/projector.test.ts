// Presenter mode on a projector, for the Incus HPA's and Kubernetes' scenarios (the others:
// projector-loops.test.ts): every scenario a talk can open, at 1280×720 and 1920×1080, in Portuguese and
// English, at its first, middle and last frame (test/browser/projector-check.ts says what is measured).
// Screenshots of every case go to test-results/projector/.
import { expect, it } from 'vitest';
import { lookAtScenario, projectorScenarios } from './projector-check';
import { useLabPage, withChromium } from './harness';

const LOOPS = new Set(['incus-hpa', 'kubernetes']);

withChromium.describe('presenter mode on a projector: the HPAs and Kubernetes (chromium)', () => {
  const lab = useLabPage();
  for (const scenario of projectorScenarios().filter((s) => LOOPS.has(s.loop))) {
    it(`${scenario.loop} ${scenario.id}: the world shows whole at both sizes, in both languages, at three frames`, async () => {
      expect(await lookAtScenario(lab.page, lab.base, scenario)).toEqual([]);
    }, 180_000);
  }
});
