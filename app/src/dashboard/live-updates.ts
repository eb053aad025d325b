/**
 * Server-sent events for an open goal page: `changed` whenever the goal's version moves, so the
 * page fetches itself again. The version is read from the database every few seconds (one row,
 * one column), which holds across replicas without a message bus.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "@loopx/store";

const POLL_MS = 2_000;
/** Comments keep proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** A stream ends after this; the browser reconnects by itself (EventSource), bounding each one. */
const STREAM_MS = 10 * 60_000;

export function streamGoalChanges(
  req: IncomingMessage,
  res: ServerResponse,
  store: Store,
  goalId: string,
  version: number,
): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    // Tells nginx-style proxies not to buffer the stream.
    "x-accel-buffering": "no",
  });
  let known = version;
  let reading = false;
  res.write(`retry: 3000\nevent: version\ndata: ${known}\n\n`);
  const poll = setInterval(() => {
    if (reading) return;
    reading = true;
    store
      .goalVersion(goalId)
      .then((now) => {
        if (now !== null && now.version !== known) {
          known = now.version;
          res.write(`event: changed\ndata: ${known}\n\n`);
        }
      })
      .catch(() => end())
      .finally(() => {
        reading = false;
      });
  }, POLL_MS);
  const keepalive = setInterval(() => res.write(": keepalive\n\n"), KEEPALIVE_MS);
  const limit = setTimeout(() => end(), STREAM_MS);
  for (const timer of [poll, keepalive, limit]) timer.unref();
  function end(): void {
    clearInterval(poll);
    clearInterval(keepalive);
    clearTimeout(limit);
    if (!res.writableEnded) res.end();
  }
  req.on("close", end);
}
