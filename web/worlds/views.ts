import type { ComponentType } from 'react';
import { createElement } from 'react';
import { frameOf } from '../../sim/loop-frames';
import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import type { FrameOf } from '../../sim/trace';
import { LOOP_UI } from '../loop-ui';
import type { LoopUi } from '../loop-ui-types';
import { JsonWorldView } from './JsonWorldView';
import { LoopCharts } from './LoopCharts';
import type { LoopViews, WorldViewProps } from './types';

/** A loop's view on the session's frame: the frame narrowed to the loop's by the session's loop id (another loop's, which the lab never pairs with this view, is shown as JSON). */
function onSessionFrame<L extends LoopId>(loop: L, View: ComponentType<WorldViewProps<FrameOf<L>>>): ComponentType<WorldViewProps> {
  function OnSessionFrame({ session, frame }: WorldViewProps) {
    const typed = frameOf(loop, session.loop, frame);
    return typed ? createElement(View, { session, frame: typed }) : createElement(JsonWorldView, { session, frame });
  }
  OnSessionFrame.displayName = View.displayName ?? View.name;
  return OnSessionFrame;
}

/** A loop's views from its LOOP_UI entry: its own, and its chart drawn by LoopCharts (the same panel for every loop). */
function sessionViews<L extends LoopId>(loop: L): LoopViews {
  const { World, Interventions, Editor }: LoopUi<L>['views'] = LOOP_UI[loop].views;
  return {
    World: onSessionFrame(loop, World),
    Charts: onSessionFrame(loop, LoopCharts),
    ...(Interventions ? { Interventions: onSessionFrame(loop, Interventions) } : {}),
    ...(Editor ? { Editor: onSessionFrame(loop, Editor) } : {}),
  };
}

// Made once per loop: React keeps a view's state only while its component stays the same.
const SESSION_VIEWS = new Map<LoopId, LoopViews>();

/** A loaded trace may name any loop: unknown ones are shown as JSON. */
export function viewsFor(loop: string): LoopViews {
  if (!isLoopId(loop)) return { World: JsonWorldView };
  let views = SESSION_VIEWS.get(loop);
  if (!views) { views = sessionViews(loop); SESSION_VIEWS.set(loop, views); }
  return views;
}
