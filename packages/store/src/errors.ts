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
