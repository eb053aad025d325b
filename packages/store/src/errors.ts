import type { Refusal } from "@loopx/core";

/** Thrown inside a transaction to roll it back and answer with a refusal instead. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

function field(err: object, name: string): unknown {
  const value: unknown = Reflect.get(err, name);
  return value;
}

/**
 * The constraint a unique violation (SQLSTATE 23505) hit, or null. Drivers differ
 * (postgres.js: constraint_name; PGlite: constraint) and drizzle wraps them in `cause`.
 */
export function uniqueViolation(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (field(e, "code") === "23505") {
      const name = field(e, "constraint_name") ?? field(e, "constraint");
      return typeof name === "string" ? name : "unknown";
    }
    e = field(e, "cause");
  }
  return null;
}

/** Known unique constraints, as refusals a caller can act on. */
export function refusalForConstraint(constraint: string): Refusal {
  switch (constraint) {
    case "goals_repo_issue_uniq":
      return { code: "duplicate", message: "this issue already has a goal; load it instead" };
    case "ticks_run_uniq":
      return {
        code: "duplicate",
        message:
          "this workflow run attempt already claimed a tick; re-run the workflow to claim again",
      };
    default:
      return { code: "duplicate", message: `already recorded (${constraint})` };
  }
}

/** SQLSTATE 25P02: a statement sent after an earlier one in the transaction had failed. */
function inFailedTransaction(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (field(e, "code") === "25P02") return true;
    e = field(e, "cause");
  }
  return false;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Awaits statements sent together on one transaction's connection (pipelined). When one
 * fails, every statement after it fails too, with "current transaction is aborted"; which
 * rejection arrives first depends on how deep each promise chain is, so this waits for all
 * and rethrows the statement's own error (a unique violation stays a unique violation).
 * Each item is awaited exactly once: drizzle's queries run again on every `then`.
 */
export async function pipelined<T extends readonly unknown[] | []>(
  items: T,
): Promise<{ -readonly [P in keyof T]: Awaited<T[P]> }> {
  const settled = await Promise.all(
    items.map(
      (item): Promise<Settled> =>
        Promise.resolve(item).then(
          (value) => ({ ok: true, value }),
          (error: unknown) => ({ ok: false, error }),
        ),
    ),
  );
  const errors = settled.flatMap((s) => (s.ok ? [] : [s.error]));
  if (errors.length > 0) throw errors.find((e) => !inFailedTransaction(e)) ?? errors[0];
  // Same length and order as `items`, every one fulfilled: the tuple type holds.
  return settled.map((s) => (s.ok ? s.value : undefined)) as {
    -readonly [P in keyof T]: Awaited<T[P]>;
  };
}
