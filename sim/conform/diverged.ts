/** Which check a divergence comes from. */
export type DivergencePart = 'controller' | 'world' | 'property';

/**
 * The first point where a real run leaves what the model allows, thrown by the replays and caught
 * by conform.ts, which adds where it happened (frame, time, event).
 */
export class Diverged extends Error {
  constructor(
    readonly part: DivergencePart,
    readonly what: string,
    readonly recorded: string,
    readonly allowed: readonly string[],
  ) {
    super(`${part}: ${what}`);
    this.name = 'Diverged';
  }
}
