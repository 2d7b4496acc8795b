import type { TranslationOf } from '../../../sim/notes/catalog';
import type { NOTES } from '../../../sim/notes';
import { COMMON_PT } from './common';
import { CRON_PT } from './cron';
import { KUBERNETES_PT } from './kubernetes';
import { PUPPET_PT } from './puppet';
import { SYSTEMD_PT } from './systemd';
import { TERRAFORM_PT } from './terraform';

/** Every key of the note catalog (sim/notes) in Portuguese: a key without its text does not compile. */
export const NOTES_PT = {
  ...COMMON_PT,
  ...CRON_PT,
  ...KUBERNETES_PT,
  ...PUPPET_PT,
  ...SYSTEMD_PT,
  ...TERRAFORM_PT,
} satisfies TranslationOf<typeof NOTES>;
