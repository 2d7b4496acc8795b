import { INSPECT_ELEMENT } from '../../sim/inspect-protocol';

/** What index.html carries when the relay is on: the lab then offers its inspector page, and names the
 * port apps send to when it is one of its own (`--inspect PORT`), else null (the lab's port, /inspect). */
export function inspectElement(port: number | null): string {
  return `<script id="${INSPECT_ELEMENT}" type="application/json">${JSON.stringify({ port })}</script>`;
}
