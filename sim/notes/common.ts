// Narration every loop shares (the runner's own frames).
import type { NoParams, NoteCatalog } from './catalog';
import { messagesOf } from './catalog';

export const COMMON_NOTES = {
  'common.controllerRestarted': (_: NoParams) => 'controller restarted: memory lost, starts observing again',
} satisfies NoteCatalog;

export const commonNote = messagesOf<typeof COMMON_NOTES>();
