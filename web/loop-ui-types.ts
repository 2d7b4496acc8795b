import type { RunnerOf } from '../sim/loop-runner';
import type { LoopId } from '../sim/loops/loop-id';
import type { FrameOf } from '../sim/trace';
import type { BannerOf } from './components/banner/types';
import type { LoopCard } from './home/card';
import type { LoopChartLabels } from './i18n/statechart-labels';
import type { TourStop } from './tour/stop';
import type { ChartOf } from './worlds/chart-types';

/** The desired state loop L runs with, as its binding declares it (sim/loop-runner.ts). */
export type ConfigOf<L extends LoopId> = RunnerOf<L>['config'];

/** What a side by side (web/compare/) compares between a loop's policies. */
export interface PolicyComparison<L extends LoopId> {
  /** The number of replicas decided at a frame; null until a first decision. */
  decision: (frame: FrameOf<L>) => number | null;
  /**
   * The policy a scenario's own configuration names: a built-in name, or another value the format accepts —
   * e.g. a user's policy module (`policy: { module: ./x.ts }`, parsed to the id `module:./x.ts`).
   */
  ownPolicy: (config: ConfigOf<L>) => string | undefined;
}

/**
 * What the lab shows of loop L, on L's own frames and config — all of it but its React views
 * (web/worlds/views.ts): the CLI's `loopscope export` and the build's statechart layouts read the chart
 * and the labels in Node, where the views (React, their CSS) cannot load.
 */
export interface LoopUi<L extends LoopId> {
  /** What its "over time" panel and a slide's chart plot. */
  chart: ChartOf<FrameOf<L>>;
  /** The phase banner's four lines. */
  banner: BannerOf<FrameOf<L>>;
  /** Its card on the home timeline. */
  card: Omit<LoopCard, 'id'>;
  /** Its stop on the talk's tour. */
  tour: Omit<TourStop, 'loop'>;
  /** Only a loop with policies to compare side by side has one; without it the side by side shows no marks. */
  comparison?: PolicyComparison<L>;
  /** Its statechart's states, events, actors, delays and guards in words. */
  labels: LoopChartLabels;
}
