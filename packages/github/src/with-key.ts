import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

const KEY_MARKER = /<!--\s*loopx:key=([^\s>]*)\s*-->/g;

function keyMarker(key: string): string {
  // Encoded so that any key, even one holding `-->` or spaces, fits in a comment and reads back.
  return `<!-- loopx:key=${encodeURIComponent(key)} -->`;
}

/**
 * Hides the outbox's idempotency key in a body, so that after a crash between the POST and
 * recording it the app finds its own comment instead of posting a second one. The body is
 * truncated first so the marker (at the very end) always survives the size limit; an
 * existing key marker is replaced, never doubled.
 */
export function withKey(body: string, key: string, limit = GITHUB_BODY_LIMIT): string {
  const marker = keyMarker(key);
  const without = body.replace(KEY_MARKER, "").replace(/\s+$/, "");
  return `${truncateBody(without, limit - marker.length - 1)}\n${marker}`;
}

/**
 * The idempotency key hidden in a body, or null. The last marker wins because withKey
 * appends; the outbox only calls this on the app's own comments, so a marker typed by
 * someone else never matters (and rendered text cannot carry one: neutralize breaks it).
 */
export function readKey(body: string): string | null {
  let last: string | null = null;
  for (const m of body.matchAll(KEY_MARKER)) last = m[1] ?? null;
  if (last === null || last === "") return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return null;
  }
}
