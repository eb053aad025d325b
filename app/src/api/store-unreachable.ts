import { z } from "zod";

// Node's socket errors, postgres.js's own connection codes, and PostgreSQL's SQLSTATEs for a
// server that is shutting down or starting up (57P0x) or a broken connection (class 08).
const SOCKET = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTCONN"]);
const DRIVER = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);
const SHUTDOWN = /^(57P0[1-3]|08[0-9A-Z]{3})$/;

const Wrapped = z.object({
  code: z.string().optional(),
  cause: z.unknown().optional(),
  errors: z.array(z.unknown()).optional(),
});

/**
 * Whether an error means the database did not answer (down, restarting, unreachable) rather
 * than a bug: such a call is worth retrying as is. Looks through the query builder's `cause` and an
 * AggregateError's `errors`, a few levels deep.
 */
export function storeUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 5) return false;
  const e = Wrapped.safeParse(error);
  if (!e.success) return false;
  const code = e.data.code ?? "";
  if (SOCKET.has(code) || DRIVER.has(code) || SHUTDOWN.test(code)) return true;
  const inner = [e.data.cause, ...(e.data.errors ?? [])].filter((x) => x !== undefined);
  return inner.some((x) => storeUnreachable(x, depth + 1));
}
