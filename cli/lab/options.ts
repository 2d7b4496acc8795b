// `loopscope lab`'s options, shared by the command (../lab-command.ts) and what it loads on use
// (./run-lab.ts): their own module so that the lazily loaded part does not import the command back.

export interface LabOptions {
  port?: string;
  host: string;
  presenter?: boolean;
  lang: string;
  /** `--inspect` alone: true (apps send to the lab's port, /inspect); `--inspect PORT`: the port's text. */
  inspect?: true | string;
  inspectHistory: string;
}

/** The port `loopscope lab` tries first (the dev server's is 5173); another free one when it is taken. */
export const DEFAULT_LAB_PORT = 5174;

/** `--inspect`: the history a page opened later still gets, by count (--inspect-history)… */
export const DEFAULT_INSPECT_HISTORY = 10_000;
/** …and by bytes: enough for 10,000 events with large contexts, and the relay's memory stays bounded whatever an app sends. */
export const DEFAULT_INSPECT_BYTES = 64 * 1024 * 1024;
