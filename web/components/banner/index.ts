import type { LoopId } from '../../../sim/loops/define';
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

const BANNERS = {
  'incus-hpa': hpaBanner, 'systemd-restart': systemdBanner, cron: cronBanner,
  puppet: puppetBanner, terraform: terraformBanner, kubernetes: kubernetesBanner,
} satisfies Record<LoopId, BannerOf>;

/** The banner of any loop; a loop the lab does not know (or a version 1 trace: no controller) gets empty lines. */
export const bannerOf = (loop: string): BannerOf => (isLoopId(loop) ? BANNERS[loop] : () => EMPTY);
