import { LIVE_HOSTS } from '../../sim/live-protocol';

/**
 * A pasted live address → the ws URL to open, or why not. Only ws://127.0.0.1 with a token:
 * the lab makes no request outside this machine (a remote run is reached through an ssh tunnel).
 */
export function checkLiveUrl(text: string): { ok: true; url: string } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, error: 'expected the address `loopscope real --live` printed, ws://127.0.0.1:PORT/?token=…' };
  }
  if (url.protocol !== 'ws:') return { ok: false, error: `expected a ws:// address, got ${url.protocol}//` };
  if (!LIVE_HOSTS.includes(url.hostname))
    return { ok: false, error: `expected host 127.0.0.1 (the lab connects only to this machine), got ${url.hostname}` };
  if (!url.searchParams.get('token')) return { ok: false, error: 'expected ?token=… (printed with the address)' };
  return { ok: true, url: url.toString() };
}
