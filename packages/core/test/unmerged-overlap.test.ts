/**
 * A todo that declares a file a finished todo's unmerged work changed waits for that merge:
 * started from the default branch now, its branch would conflict with the unmerged work as
 * soon as it landed, and the goal would pay for a rebase slice. What the work changed is what
 * the report job saw pushed (recordPushedCommit), not what either todo declared.
 */
import { describe, expect, it } from "vitest";
import {
  AWAITING_PULL_REQUEST,
  decide,
  type GoalState,
  PullRequest,
  recordPushedCommit,
  type Todo,
  todoDependenciesOf,
} from "../src/index.ts";
import { state, T0, todo } from "./fixtures.ts";

const finished = (key: string, pushedPaths: string[], paths = ["src/**"]): Todo =>
  todo(key, { status: "blocked", blockedReason: AWAITING_PULL_REQUEST, paths, pushedPaths });
const openPull = (number: number, todoKey: string) =>
  PullRequest.parse({
    number,
    todo: todoKey,
    headRef: `loopx/1-${todoKey}`,
    headSha: "abcdef1",
    state: "open",
  });
const agent = {
  actor: {
    kind: "agent" as const,
    tickId: "00000000-0000-4000-8000-0000000000aa",
    harness: "shell",
  },
  now: T0,
  newId: () => "00000000-0000-4000-8000-0000000000bb",
};

describe("a todo waits for unmerged work on the files it declares", () => {
  it("waits for the open PR whose commits changed its file, and says so", () => {
    const s = state({
      todos: [finished("T1", ["src/csv.mjs"]), todo("T2", { paths: ["src/csv.mjs"] })],
      pullRequests: [openPull(7, "T1")],
    });
    const d = decide(s, T0, "agent-a");
    expect(d.route).toBe("wait");
    expect(d.reason).toContain("T2 until #7 merges");
    const t2 = s.todos.find((t) => t.key === "T2");
    if (!t2) throw new Error("no T2");
    expect(todoDependenciesOf(s)(t2).pr).toBe(7);
  });

  it("a glob it declares counts, and so does work whose PR is not open yet", () => {
    const s = state({
      todos: [finished("T1", ["src/csv.mjs"]), todo("T2", { paths: ["src/**"] })],
    });
    const d = decide(s, T0, "agent-a");
    expect(d.route).toBe("wait");
    expect(d.reason).toContain("T2 until T1's pull request merges");
  });

  it("runs beside work under the same folder that changed other files", () => {
    // The guide (docs/**) pushed docs/guide.md; the index declares docs/index.md alone.
    const s = state({
      todos: [
        finished("T1", ["docs/guide.md"], ["docs/**"]),
        todo("T2", { paths: ["docs/index.md"] }),
      ],
      pullRequests: [openPull(7, "T1")],
    });
    expect(decide(s, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });

  it("runs a todo that declares no paths, and after work nothing was pushed for", () => {
    const undeclared = state({
      todos: [finished("T1", ["src/csv.mjs"]), todo("T2")],
      pullRequests: [openPull(7, "T1")],
    });
    expect(decide(undeclared, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
    const unknown = state({
      todos: [finished("T1", []), todo("T2", { paths: ["src/csv.mjs"] })],
      pullRequests: [openPull(7, "T1")],
    });
    expect(decide(unknown, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });

  it("runs again once the work merged and its todo is done", () => {
    const s = state({
      todos: [
        todo("T1", { status: "done", pushedPaths: ["src/csv.mjs"] }),
        todo("T2", { paths: ["src/csv.mjs"] }),
      ],
      pullRequests: [PullRequest.parse({ ...openPull(7, "T1"), state: "merged" })],
    });
    expect(decide(s, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });
});

describe("recordPushedCommit", () => {
  const start = (): GoalState => state({ todos: [todo("T1", { paths: ["src/**"] })] });

  it("keeps the commit as evidence and adds the files it changed, each once", () => {
    const first = recordPushedCommit(
      start(),
      { todo: "T1", sha: "abcdef1", summary: "pushed", paths: ["src/a.mjs", "test/a.test.mjs"] },
      agent,
    );
    if (!first.ok) throw new Error(first.refusal.message);
    const again = recordPushedCommit(
      first.state,
      { todo: "T1", sha: "abcdef2", summary: "pushed", paths: ["src/a.mjs", "src/b.mjs"] },
      agent,
    );
    if (!again.ok) throw new Error(again.refusal.message);
    const t1 = again.state.todos.find((t) => t.key === "T1");
    expect(t1?.pushedPaths).toEqual(["src/a.mjs", "test/a.test.mjs", "src/b.mjs"]);
    expect(again.state.evidence.map((e) => [e.kind, e.sha])).toEqual([
      ["commit", "abcdef1"],
      ["commit", "abcdef2"],
    ]);
  });

  it("refuses anyone but a tick's agent, and a todo the goal lacks, changing nothing", () => {
    const s = start();
    const byApp = recordPushedCommit(
      s,
      { todo: "T1", sha: "abcdef1", summary: "pushed", paths: ["src/a.mjs"] },
      { ...agent, actor: { kind: "app" } },
    );
    expect(byApp).toMatchObject({ ok: false, refusal: { code: "not_authorized" } });
    const missing = recordPushedCommit(
      s,
      { todo: "T9", sha: "abcdef1", summary: "pushed", paths: [] },
      agent,
    );
    expect(missing).toMatchObject({ ok: false, refusal: { code: "not_found" } });
    expect(s.todos[0]?.pushedPaths).toEqual([]);
  });
});
