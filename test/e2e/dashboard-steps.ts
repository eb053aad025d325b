/** Shared steps of the dashboard scenarios: the app with its dashboard on, and a fake slice. */
import { randomUUID } from "node:crypto";
import { applyTickResult, claimNext } from "@loopx/core";
import type { DashboardOptions } from "../../app/src/dashboard/index.ts";
import { demoDashboard } from "../../packages/demo/src/dashboard/demo-dashboard.ts";
import { type Harness, startHarness } from "../support/app-harness.ts";

type Readonly = Extract<DashboardOptions, { mode: "readonly" }>;

/**
 * The app on the sandbox with its dashboard off, readonly (`extra`: a session stand-in), or
 * as the loopback demo serves it ("demo": the demo's gate buttons, acting as alice).
 */
export async function startDashboardHarness(
  mode: "off" | "readonly" | "demo",
  extra: Omit<Readonly, "mode"> = {},
): Promise<Harness> {
  const h = await startHarness();
  const owner = {
    login: "alice",
    token: h.sandbox.createUserToken("alice"),
    apiUrl: h.sandbox.url,
  };
  const dashboard: DashboardOptions =
    mode === "demo"
      ? { mode: "open", extension: demoDashboard({ store: h.store, owner }) }
      : mode === "readonly"
        ? { mode, ...extra }
        : { mode };
  await h.restart({ dashboard });
  return h;
}

export interface FakeSlice {
  summary: string;
  done: string;
  usd: number;
  /** On a planning todo, propose a todo named `done` (default), as a real plan does. */
  proposes?: boolean;
}

/**
 * One slice as the tick API would record it: a claim under a lease, then the result. The
 * kernel's own transitions, so the dashboard reads what a real tick leaves behind.
 */
export async function recordSlice(h: Harness, goalId: string, slice: FakeSlice): Promise<void> {
  const tickId = randomUUID();
  const leaseToken = `lease-${randomUUID()}`;
  let todo = "";
  const claimed = await h.store.apply(goalId, (s, now) => {
    const out = claimNext(
      s,
      { tickId, leaseToken, agent: "test", harness: "shell", run: null, leaseTtlMs: 600_000 },
      { actor: { kind: "app" }, now, newId: randomUUID },
    );
    return out.result;
  });
  if (!claimed.ok) throw new Error(`claim refused: ${claimed.refusal.message}`);
  todo = claimed.state.ticks.find((t) => t.id === tickId)?.todo ?? "";
  // A planning slice's work is its plan: one that proposes nothing is a stall.
  const planning =
    slice.proposes !== false && claimed.state.todos.find((t) => t.key === todo)?.kind === "plan";
  const finished = await h.store.apply(goalId, (s, now) =>
    applyTickResult(
      s,
      {
        tickId,
        leaseToken,
        result: {
          todo,
          outcome: "progress",
          // Validated progress, so the goal does not back off between the two slices.
          validation: { command: "npm test", exitCode: 0, passed: true },
          evidence: [{ kind: "log", summary: slice.summary }],
          handoff: { done: slice.done, next: "keep going" },
          ...(planning ? { proposedTodos: [{ title: slice.done }] } : {}),
          cost: { usd: slice.usd, tokens: 100, runnerMinutes: 2 },
          // As the metering proxy counted it: an unmetered slice would be charged the cap.
          metering: "proxy",
        },
      },
      { actor: { kind: "app" }, now, newId: randomUUID },
    ),
  );
  if (!finished.ok) throw new Error(`result refused: ${finished.refusal.message}`);
  h.app.outbox.kick();
  await h.settle();
}

export async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}
