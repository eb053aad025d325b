/**
 * Path rules of `.github/loopx.yml` guard any glob, not only `.github/`: the globs' grammar, the
 * scopes a refused push needs, and the gate that refusal opens so the todo waits for a person.
 */
import { describe, expect, it } from "vitest";
import { analyseFrontier } from "../src/frontier.ts";
import {
  applyTickResult,
  approveGate,
  claimTodo,
  decide,
  matchesGlob,
  recordPushRefused,
  scopesGuarding,
  WORKFLOW_PATHS_SCOPE,
} from "../src/index.ts";
import type { GoalState } from "../src/schemas/state.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  gate,
  lease1,
  minutes,
  result,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

const HEAD = "a".repeat(40);
const AGENT = { kind: "agent" as const, tickId: lease1.tickId, harness: "shell" };
const MIGRATE = { paths: ["db/migrations/**"], scopes: ["migrate"] };

describe("matchesGlob", () => {
  const cases: [string, string, boolean][] = [
    ["db/migrations/001.sql", "db/migrations/**", true],
    ["db/migrations/2026/001.sql", "db/migrations/**", true],
    ["db/migrationsX/001.sql", "db/migrations/**", false],
    ["db/001.sql", "**/*.sql", true],
    ["001.sql", "**/*.sql", true],
    ["db/001.sqlx", "**/*.sql", false],
    ["src/a.ts", "src/*.ts", true],
    ["src/deep/a.ts", "src/*.ts", false],
    ["src/ab.ts", "src/?.ts", false],
    ["src/a.ts", "src/?.ts", true],
    // Regex metacharacters in a glob are literal.
    ["docs/a+b.md", "docs/a+b.md", true],
    ["docs/aab.md", "docs/a+b.md", false],
    ["Dockerfile", "Dockerfile", true],
    ["sub/Dockerfile", "Dockerfile", false],
  ];
  it.each(cases)("%s against %s is %s", (path, glob, expected) => {
    expect(matchesGlob(path, glob)).toBe(expected);
  });
});

describe("scopesGuarding", () => {
  it("names each matching rule's scopes once, sorted, and write:.github while .github is guarded", () => {
    const rules = [MIGRATE, { paths: ["**/*.sql", "infra/**"], scopes: ["infra", "migrate"] }];
    const paths = ["db/migrations/1.sql", ".GitHub/CODEOWNERS", "src/a.ts"];
    expect(scopesGuarding(paths, rules, { githubGuarded: true })).toEqual(
      ["infra", "migrate", WORKFLOW_PATHS_SCOPE].sort(),
    );
    expect(scopesGuarding(paths, rules, { githubGuarded: false })).toEqual(["infra", "migrate"]);
  });

  it("asks for nothing when no path matches", () => {
    expect(scopesGuarding(["src/a.ts"], [MIGRATE], { githubGuarded: true })).toEqual([]);
  });
});

/** T1 claimed by tick 501, which finished with one commit on T1's branch. */
function finishedWithCommit(s: GoalState): GoalState {
  const claimed = expectOk(claimTodo(s, claimInput(1), ctx())).state;
  const done = result({
    outcome: "completed",
    commits: [{ sha: HEAD, message: "Add a column" }],
    continuation: { kind: "goal_active" },
  });
  return expectOk(applyTickResult(claimed, { ...lease1, result: done }, ctx(at(minutes(5))))).state;
}

/** T1's commit touches a guarded migration; the report job refused to push it. */
function refusedMigration(s: GoalState = state({ todos: [todo("T1"), todo("T2")] })): GoalState {
  return expectOk(
    recordPushRefused(
      finishedWithCommit(s),
      {
        todo: "T1",
        headSha: HEAD,
        summary: "push refused: db/migrations/001.sql is guarded",
        paths: ["db/migrations/001.sql"],
        scopes: ["migrate"],
      },
      ctx(at(minutes(6)), AGENT),
    ),
  ).state;
}

describe("a push refused by a path rule", () => {
  it("opens one gate on the rule's scopes; the todo needs them and waits, the others run", () => {
    const s = refusedMigration();
    const opened = s.gates.filter((g) => g.status === "open");
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ scopes: ["migrate"], todo: "T1" });
    expect(opened[0]?.question).toContain("`db/migrations/001.sql`");
    const t1 = s.todos.find((t) => t.key === "T1");
    expect(t1?.requiredScopes).toContain("migrate");
    const frontier = analyseFrontier(s, at(minutes(7)));
    expect(frontier.blocked.map((t) => t.key)).toEqual(["T1"]);
    expect(frontier.runnable.map((t) => t.key)).toEqual(["T2"]);
    // The question holds T1 alone, so the refusal is no stall: T2 runs at once.
    expect(s.goal.backoff.stalledTicks).toBe(0);
    expect(decide(s, at(minutes(7)), "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });

  it("a writer's approval makes the todo runnable again", () => {
    const s = refusedMigration();
    const key = s.gates.find((g) => g.status === "open")?.key ?? "";
    const approved = expectOk(approveGate(s, { gate: key }, ctx(at(minutes(8)), WRITER))).state;
    const frontier = analyseFrontier(approved, at(minutes(9)));
    expect(frontier.runnable.map((t) => t.key)).toContain("T1");
  });

  it("opens no second gate while one already holds the scope", () => {
    const s = refusedMigration(
      state({ todos: [todo("T1"), todo("T2")], gates: [gate("G1", ["migrate"])] }),
    );
    expect(s.gates.map((g) => g.key)).toEqual(["G1"]);
    expect(s.todos.find((t) => t.key === "T1")?.requiredScopes).toContain("migrate");
    // No new question: the refused push is a stall like any other.
    expect(s.goal.backoff.stalledTicks).toBe(1);
  });

  it("opens no gate when the refusal names no scope (the report knew no rule for it)", () => {
    const finished = finishedWithCommit(state({ todos: [todo("T1")] }));
    const r = expectOk(
      recordPushRefused(
        finished,
        { todo: "T1", headSha: HEAD, summary: "push refused: too large" },
        ctx(at(minutes(6)), AGENT),
      ),
    ).state;
    expect(r.gates).toHaveLength(0);
    expect(r.goal.backoff.stalledTicks).toBe(1);
  });

  it("an agent's backtick in a path does not break out of the question's code span", () => {
    const finished = finishedWithCommit(state({ todos: [todo("T1")] }));
    const r = expectOk(
      recordPushRefused(
        finished,
        {
          todo: "T1",
          headSha: HEAD,
          summary: "push refused",
          paths: ["db/migrations/`@everyone`.sql"],
          scopes: ["migrate"],
        },
        ctx(at(minutes(6)), AGENT),
      ),
    ).state;
    const question = r.gates[0]?.question ?? "";
    expect(question).not.toContain("`@everyone`");
    expect(question.split("`").length % 2).toBe(1);
  });
});
