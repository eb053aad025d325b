/**
 * Windowing never changes a decision. Seeded random sequences of real kernel transitions run
 * on one goal; before every step the goal is loaded twice, windowed (a tiny window, so it
 * bites) and whole, and both must give the same decide(), the same open work and the same
 * checklist. Each step is committed through the store on the windowed load and compared with
 * the same transition run on the whole aggregate: accepted or refused alike, the same
 * events, effects and resulting open work, as read back whole.
 */
import {
  addTodo,
  applyTickResult,
  approveGate,
  claimTodo,
  createGoal,
  decide,
  dropTodo,
  editTodo,
  type GoalState,
  type HarnessResult,
  linkPullRequest,
  openGate,
  rejectGate,
  type TransitionContext,
  type TransitionResult,
} from "@loopx/core";
import { renderManagedBlock } from "@loopx/github";
import { FULL_WINDOW, type LoadWindow, openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase, sharedPglite } from "../support/databases.ts";

const serverUrl = inject("pgUrl");

const SMALL: LoadWindow = { ...FULL_WINDOW, recentFinished: 2 };
const SEQUENCES = 6;
const STEPS = 60;
const BOB = { kind: "human", login: "bob", trusted: true } as const;

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed by its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ids a step mints, the same on every run of that step (windowed, whole, retried). */
function idsFor(seed: number, step: number): () => string {
  let n = 0;
  return () => {
    n++;
    const hex = (seed * 1_000_003 + step * 1_009 + n).toString(16).padStart(12, "0").slice(-12);
    return `00000000-0000-4000-8000-${hex}`;
  };
}

function openWork(state: GoalState) {
  const { version: _v, ...goal } = state.goal;
  return {
    goal,
    todos: state.todos.filter((t) => t.status !== "done" && t.status !== "dropped"),
    gates: state.gates.filter((g) => g.status === "open"),
    pullRequests: state.pullRequests.filter((p) => p.state === "open"),
    ticks: state.ticks.filter((t) => t.finishedAt === null),
  };
}

function checklist(state: GoalState): string {
  return renderManagedBlock(state, {
    statusCommentUrl: null,
    dashboardUrl: "https://app.test/loopx",
    recentFinished: SMALL.recentFinished ?? 0,
  });
}

function completed(todo: string, tickId: string, leaseToken: string, pushed: boolean) {
  const result: HarnessResult = {
    todo,
    outcome: "completed",
    failure: null,
    validation: { command: "npm test", exitCode: 0, passed: true, summary: "ok" },
    // Pushed commits wait for a pull request; a slice without them is done at once.
    commits: pushed ? [{ sha: "0123456789abcdef", message: "done" }] : [],
    evidence: [{ kind: "test", summary: "tests pass", url: null, sha: "0123456789abcdef" }],
    handoff: { done: "finished", next: "next todo", questions: [] },
    continuation: { kind: "goal_active" },
    proposedTodos: [],
    gateRequests: [],
    cost: { usd: 0.01, tokens: 10, runnerMinutes: 1 },
    metering: "proxy",
    withheld: [],
    sessionId: null,
  };
  return { tickId, leaseToken, result };
}

type Step = (state: GoalState, ctx: TransitionContext) => TransitionResult;

/** One random step; `pick` chooses keys among every todo and gate ever minted, done or not. */
function randomStep(rand: () => number, state: GoalState, ids: () => string): Step {
  const pick = (prefix: string, count: number) => `${prefix}${1 + Math.floor(rand() * count)}`;
  const todoKey = () => pick("T", Math.max(1, state.goal.counters.todo - 1));
  const gateKey = () => pick("G", Math.max(1, state.goal.counters.gate - 1));
  const open = state.todos.find((t) => t.claim !== null);
  const tick = open?.claim ? state.ticks.find((t) => t.id === open.claim?.tickId) : undefined;
  if (open && tick) {
    const { id: tickId, leaseToken } = tick;
    const pushed = rand() < 0.2;
    return (s, ctx) =>
      applyTickResult(s, completed(open.key, tickId, leaseToken, pushed), {
        ...ctx,
        actor: { kind: "agent", tickId, harness: "shell" },
      });
  }
  const r = rand();
  const scopes = rand() < 0.3 ? ["deploy"] : [];
  if (r < 0.35) {
    const tickId = ids();
    const leaseToken = `${tickId.replaceAll("-", "")}`;
    return (s, ctx) =>
      claimTodo(
        s,
        { tickId, leaseToken, agent: "agent-1", harness: "shell", run: null, leaseTtlMs: 600_000 },
        { ...ctx, actor: { kind: "agent", tickId, harness: "shell" } },
      );
  }
  if (r < 0.55) {
    const waits = rand() < 0.3 ? { kind: "todo_done" as const, todo: todoKey() } : null;
    const title = `Stage ${Math.floor(rand() * 1000)}`;
    return (s, ctx) => addTodo(s, { title, requiredScopes: scopes, resumeWhen: waits }, ctx);
  }
  if (r < 0.62) {
    const todo = todoKey();
    return (s, ctx) => dropTodo(s, { todo, reason: "not needed" }, ctx);
  }
  if (r < 0.7) {
    const todo = todoKey();
    const title = `Renamed ${Math.floor(rand() * 1000)}`;
    return (s, ctx) => editTodo(s, { todo, title }, ctx);
  }
  if (r < 0.78) {
    const todo = rand() < 0.5 ? todoKey() : null;
    return (s, ctx) => openGate(s, { question: "May I deploy?", scopes: ["deploy"], todo }, ctx);
  }
  if (r < 0.86) {
    const gate = gateKey();
    return (s, ctx) => approveGate(s, { gate }, ctx);
  }
  if (r < 0.9) {
    const gate = gateKey();
    return (s, ctx) => rejectGate(s, { gate, reason: "not now" }, ctx);
  }
  // A PR number may repeat one linked earlier and since left out of the window.
  const number = 1 + Math.floor(rand() * 6);
  const merged = rand() < 0.7;
  return (s, ctx) =>
    linkPullRequest(
      s,
      {
        number,
        headRef: `feature-${number}`,
        headSha: "abcdef1234567",
        state: merged ? "merged" : "open",
      },
      ctx,
    );
}

function outcome(r: TransitionResult) {
  return r.ok
    ? { ok: true, events: r.events, effects: r.effects, work: openWork(r.state) }
    : { ok: false, refusal: r.refusal };
}

function describeWindowing(
  name: string,
  open: () => Promise<{ store: Store; done: () => Promise<void> }>,
  sequences: number,
) {
  describe(`a windowed aggregate decides as the whole one does (${name})`, () => {
    let store: Store;
    let done: () => Promise<void> = async () => {};
    beforeAll(async () => {
      ({ store, done } = await open());
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
      await done();
    });

    for (let seed = 1; seed <= sequences; seed++) {
      it(`random sequence ${seed}`, async () => {
        const rand = prng(seed);
        const base = Date.parse("2026-03-01T00:00:00Z");
        const created = await store.createGoal(() =>
          createGoal(
            {
              id: idsFor(seed, 0)(),
              installationId: 11,
              repo: { id: 9100 + seed, ownerId: 99, owner: "acme", name: "rocket" },
              issue: { id: 810_000 + seed, number: seed },
              objective: {
                title: "Reach orbit",
                body: "Build it.",
                author: "bob",
                authorTrusted: true,
                snapshotAt: new Date(base),
              },
              owners: ["bob"],
              harness: "shell",
              budget: { usd: 500 },
              todos: [{ title: "Stage 1" }, { title: "Stage 2" }, { title: "Stage 3" }],
            },
            { actor: BOB, now: new Date(base), newId: idsFor(seed, 0) },
          ),
        );
        if (!created.ok) throw new Error(created.refusal.message);
        const id = created.state.goal.id;
        let windowedFewer = 0;
        for (let step = 1; step <= STEPS; step++) {
          const now = new Date(base + step * 60_000);
          const small = await store.loadGoal(id, SMALL);
          const whole = await store.loadGoal(id, FULL_WINDOW);
          if (!small || !whole) throw new Error("goal vanished");
          if (small.todos.length < whole.todos.length) windowedFewer++;
          const where = `seed ${seed}, step ${step}`;
          expect(decide(small, now, "agent-1"), where).toEqual(decide(whole, now, "agent-1"));
          expect(openWork(small), where).toEqual(openWork(whole));
          expect(checklist(small), where).toEqual(checklist(whole));

          const transition = randomStep(rand, whole, idsFor(seed, step));
          const ctxOf = (): TransitionContext => ({ actor: BOB, now, newId: idsFor(seed, step) });
          const expected = transition(whole, ctxOf());
          const applied = await store.apply(id, (s) => transition(s, ctxOf()), { window: SMALL });
          const got = applied.ok
            ? {
                ok: true,
                events: applied.events,
                effects: applied.effects,
                work: openWork(applied.state),
              }
            : { ok: false, refusal: applied.refusal };
          expect(got, where).toEqual(outcome(expected));
          if (expected.ok) {
            const reread = await store.loadGoal(id, FULL_WINDOW);
            if (!reread) throw new Error("goal vanished");
            expect(openWork(reread), where).toEqual(openWork(expected.state));
            // Nothing the window left out was deleted or rewritten.
            const finished = (s: GoalState) =>
              s.todos.filter((t) => t.status === "done" || t.status === "dropped");
            expect(finished(reread), where).toEqual(finished(expected.state));
            expect(reread.gates, where).toEqual(expected.state.gates);
            expect(reread.pullRequests, where).toEqual(expected.state.pullRequests);
          }
        }
        // The window must actually have left something out, or this proves nothing.
        expect(windowedFewer).toBeGreaterThan(0);
      });
    }
  });
}

describeWindowing(
  "PGlite",
  async () => ({ store: await openStore({ pglite: await sharedPglite() }), done: async () => {} }),
  SEQUENCES,
);

describe.skipIf(!serverUrl)(
  `real PostgreSQL${serverUrl ? "" : ` (skipped: ${inject("pgSkipReason")})`}`,
  () => {
    describeWindowing(
      "PostgreSQL",
      async () => {
        if (!serverUrl) throw new Error("unreachable: skipped without a server");
        const db = await freshDatabase(serverUrl);
        return { store: await openStore({ databaseUrl: db.url }), done: db.drop };
      },
      3,
    );
  },
);
