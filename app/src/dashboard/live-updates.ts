/**
 * Server-sent events for an open dashboard page: `changed` whenever what it shows moved, so
 * the page fetches itself again. What it shows is stamped from the database every few seconds
 * (a goal's version; the goals' last updates), which holds across replicas without a bus.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "@loopx/store";

const POLL_MS = 2_000;
/** Comments keep proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** A stream ends after this; the browser reconnects by itself (EventSource), bounding each one. */
const STREAM_MS = 10 * 60_000;

/**
 * Streams `changed` whenever `stamp()` reads something other than it last did; `initial` is
 * what the page was rendered from. A read that fails ends the stream (the browser
 * reconnects); `null` means the thing is gone, which changes nothing on the page.
 */
export function streamChanges(
  req: IncomingMessage,
  res: ServerResponse,
  stamp: () => Promise<string | null>,
  initial: string,
): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    // Tells nginx-style proxies not to buffer the stream.
    "x-accel-buffering": "no",
  });
  let known = initial;
  let reading = false;
  res.write(`retry: 3000\nevent: ready\ndata: \n\n`);
  const poll = setInterval(() => {
    if (reading) return;
    reading = true;
    stamp()
      .then((now) => {
        if (now !== null && now !== known) {
          known = now;
          res.write("event: changed\ndata: \n\n");
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

/** An open goal page: it changes whenever the goal's version moves. */
export function streamGoalChanges(
  req: IncomingMessage,
  res: ServerResponse,
  store: Store,
  goalId: string,
  version: number,
): void {
  const stamp = async () => {
    const now = await store.goalVersion(goalId);
    return now === null ? null : String(now.version);
  };
  streamChanges(req, res, stamp, String(version));
}

/**
 * The open overview: it changes whenever a goal the person may see moves (a transition sets
 * its last update: a tick claimed or finished, a gate opened or decided) or a goal appears.
 * Whether a repository is visible is asked once per stream: a sign-in's access is read from
 * GitHub, not at every poll.
 */
export async function streamOverviewChanges(
  req: IncomingMessage,
  res: ServerResponse,
  store: Store,
  canSee: (repo: string) => Promise<boolean>,
): Promise<void> {
  const visible = new Map<string, boolean>();
  const stamp = async () => {
    const parts: string[] = [];
    for (const r of await store.repoActivity()) {
      if (!visible.has(r.repo)) visible.set(r.repo, await canSee(r.repo));
      if (visible.get(r.repo)) parts.push(`${r.repo}:${r.goals}:${r.lastUpdate.toISOString()}`);
    }
    return parts.join("|");
  };
  streamChanges(req, res, stamp, await stamp());
}
