import { framesOf } from '../../../sim/loop-frames';
import type { LoopId } from '../../../sim/loops/define';
import type { FrameOf } from '../../../sim/trace';
import { isLoopId } from '../../../sim/loops/define';
import { LOOP_UI } from '../../loop-ui';
import type { BannerOf } from './types';
import { EMPTY } from './types';

export type { BannerLines } from './types';

/** The banner of any loop, on that loop's frames (a session's own); a loop the lab does not know (or a version 1 trace: no controller) gets empty lines. */
export const bannerOf = (loop: string): BannerOf => (isLoopId(loop) ? bannerOn(loop) : () => EMPTY);

function bannerOn<L extends LoopId>(loop: L): BannerOf {
  const banner: BannerOf<FrameOf<L>> = LOOP_UI[loop].banner;
  return (frames, index, lang) => {
    const typed = framesOf(loop, loop, frames);
    return typed ? banner(typed, index, lang) : EMPTY;
  };
}
