/** What every frame's world is before its loop's schema reads it: a JSON object. */
export type WorldObject = Record<string, unknown>;
