import { framesOf } from '../../../sim/loop-frames';
import type { LoopId } from '../../../sim/loops/define';
import type { FrameOf } from '../../../sim/trace';
import { isLoopId } from '../../../sim/loops/define';
import { cronBanner } from './cron';
import { hpaBanner } from './hpa';
import { kubernetesBanner } from './kubernetes';
import { puppetBanner } from './puppet';
import { systemdBanner } from './systemd';
import { terraformBanner } from './terraform';
import type { BannerOf } from './types';
import { EMPTY } from './types';

export type { BannerLines } from './types';

const BANNERS: { [L in LoopId]: BannerOf<FrameOf<L>> } = {
  'incus-hpa': hpaBanner, 'systemd-restart': systemdBanner, cron: cronBanner,
  puppet: puppetBanner, terraform: terraformBanner, kubernetes: kubernetesBanner,
};

/** The banner of any loop, on that loop's frames (a session's own); a loop the lab does not know (or a version 1 trace: no controller) gets empty lines. */
export const bannerOf = (loop: string): BannerOf => (isLoopId(loop) ? bannerOn(loop) : () => EMPTY);

function bannerOn<L extends LoopId>(loop: L): BannerOf {
  const banner: BannerOf<FrameOf<L>> = BANNERS[loop];
  return (frames, index, lang) => { const typed = framesOf(loop, loop, frames); return typed ? banner(typed, index, lang) : EMPTY; };
}
