import type { IncomingMessage } from "node:http";

/** Headers a proxy adds: a request carrying any came through something else than loopback. */
const FORWARDING = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "via"];

const LOOPBACK_ADDRESS = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** The names the demo serves itself under: a loopback name and the port it listens on. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * Why the no-sign-in demo dashboard must not answer this request, or null. Its buttons
 * comment as the demo's owner, so a loopback socket is not enough: a reverse proxy on the
 * same machine forwards strangers from loopback (it adds forwarding headers), and a
 * DNS-rebinding page reaches loopback under its own name (the Host header says which).
 */
export function demoRefusal(req: IncomingMessage): string | null {
  if (!LOOPBACK_ADDRESS.test(req.socket.remoteAddress ?? "")) {
    return "The demo dashboard answers loopback only; a shared deployment uses LOOPX_DASHBOARD=readonly.";
  }
  const forwarded = FORWARDING.find((h) => req.headers[h] !== undefined);
  if (forwarded) {
    return `The demo dashboard refuses forwarded requests (${forwarded} is set): it has no sign-in, so it must not sit behind a proxy. Open it directly on 127.0.0.1, or use LOOPX_DASHBOARD=readonly.`;
  }
  const served = LOOPBACK_NAMES.map((name) => `${name}:${req.socket.localPort}`);
  if (!served.includes((req.headers.host ?? "").toLowerCase())) {
    return `The demo dashboard answers only under ${served.join(", ")}, not under the name this request used.`;
  }
  return null;
}
