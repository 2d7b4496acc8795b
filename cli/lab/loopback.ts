// Which requests come from this machine: the lab's HTTP files and its inspection relay answer only
// to loopback names (a request naming any other host is DNS rebinding) and to pages served from them.

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The host a Host header names, without its port. */
export function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(header);
  return m?.[1]?.toLowerCase();
}

/** A Host header naming this machine. */
export const isLoopbackHost = (header: string | undefined): boolean => {
  const host = hostOf(header);
  return host !== undefined && isLoopback(host);
};

/** No Origin (a program, not a page) or a page served from this machine; a page of any other site is refused. */
export function loopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return isLoopback(new URL(origin).hostname.toLowerCase());
  } catch {
    return false;
  }
}
