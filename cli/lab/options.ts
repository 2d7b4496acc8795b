// `loopscope lab`'s options, shared by the command (../lab-command.ts) and what it loads on use
// (./run-lab.ts): their own module so that the lazily loaded part does not import the command back.

export interface LabOptions { port?: string; host: string; presenter?: boolean; lang: string }

/** The port `loopscope lab` tries first (the dev server's is 5173); another free one when it is taken. */
export const DEFAULT_LAB_PORT = 5174;
