/**
 * The `code` a Node error carries (ENOENT, ERR_SCRIPT_EXECUTION_TIMEOUT, …), if the thrown value has one.
 * Not `instanceof Error`: an error from another realm (a vm context, a worker) is still an error.
 */
export function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}
