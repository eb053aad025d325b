/**
 * A todo whose declared paths meet those of a finished todo still awaiting its pull request
 * waits for that merge: started from the default branch now, its branch would conflict with
 * the unmerged work as soon as it landed, and the goal would pay for a rebase slice.
 */
import { describe, expect, it } from "vitest";
import {
  AWAITING_PULL_REQUEST,
  decide,
  PullRequest,
  type Todo,
  todoDependenciesOf,
} from "../src/index.ts";
import { state, T0, todo } from "./fixtures.ts";

const finished = (key: string, paths: string[]): Todo =>
  todo(key, { status: "blocked", blockedReason: AWAITING_PULL_REQUEST, paths });
const openPull = (number: number, todoKey: string) =>
  PullRequest.parse({
    number,
    todo: todoKey,
    headRef: `loopx/1-${todoKey}`,
    headSha: "abcdef1",
    state: "open",
  });

describe("a todo waits for unmerged work on the paths it declares", () => {
  it("waits for the open PR of a todo changing the same file, and says so", () => {
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

  it("waits while the App has yet to open the PR, naming the finished todo", () => {
    const s = state({
      todos: [finished("T1", ["src/**"]), todo("T2", { paths: ["src/csv.mjs"] })],
    });
    const d = decide(s, T0, "agent-a");
    expect(d.route).toBe("wait");
    expect(d.reason).toContain("T2 until T1's pull request merges");
  });

  it("runs a todo whose paths do not meet the unmerged work's", () => {
    const s = state({
      todos: [finished("T1", ["src/csv.mjs"]), todo("T2", { paths: ["docs/**"] })],
      pullRequests: [openPull(7, "T1")],
    });
    expect(decide(s, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });

  it("runs a todo that declares no paths, and one after work that declared none", () => {
    const undeclared = state({
      todos: [finished("T1", ["src/csv.mjs"]), todo("T2")],
      pullRequests: [openPull(7, "T1")],
    });
    expect(decide(undeclared, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
    const after = state({
      todos: [finished("T1", []), todo("T2", { paths: ["src/csv.mjs"] })],
      pullRequests: [openPull(7, "T1")],
    });
    expect(decide(after, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });

  it("runs again once the work merged and its todo is done", () => {
    const s = state({
      todos: [
        todo("T1", { status: "done", paths: ["src/csv.mjs"] }),
        todo("T2", { paths: ["src/csv.mjs"] }),
      ],
      pullRequests: [PullRequest.parse({ ...openPull(7, "T1"), state: "merged" })],
    });
    expect(decide(s, T0, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });
});
