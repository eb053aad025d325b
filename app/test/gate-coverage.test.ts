import { PullRequest } from "@loopx/core";
import { GitHubError, type GitHubPort, type PullFile } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { gate, state, T0, todo } from "../../packages/core/test/fixtures.ts";
import { gateCoverage } from "../src/outbox/gate-coverage.ts";

const HEAD = "a".repeat(40);
const LATER = "b".repeat(40);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A goal whose merge gate asks about HEAD, with the PR at `prHead` as LoopX last read it. */
function goal(prHead: string, status: "open" | "approved" = "open") {
  return state({
    todos: [todo("T1")],
    gates: [gate("G1", ["merge"], { status, pr: { number: 7, headSha: HEAD, seenAt: null } })],
    pullRequests: [
      PullRequest.parse({
        number: 7,
        todo: "T1",
        headRef: "loopx/1-T1",
        headSha: prHead,
        state: "open",
        monitor: { size: { sha: prHead, files: 1, insertions: 3, deletions: 0 } },
      }),
    ],
  });
}

function port(answer: () => Promise<{ files: PullFile[]; complete: boolean }>) {
  const calls: number[] = [];
  const p: Pick<GitHubPort, "listPullFiles"> = {
    listPullFiles: (_repo, number) => {
      calls.push(number);
      return answer();
    },
  };
  return { p, calls };
}

const file = (commit: string | null): PullFile => ({
  filename: "src/a.ts",
  status: "added",
  additions: 3,
  deletions: 0,
  commit,
});

describe("gateCoverage: the files a gate's comment names are the gate's head's", () => {
  const coverage = async (s: ReturnType<typeof goal>, p: Pick<GitHubPort, "listPullFiles">) => {
    const g = s.gates[0];
    if (!g) throw new Error("no gate");
    return gateCoverage(p, s, g, T0, quiet);
  };

  it("lists the files GitHub gives at the gate's head", async () => {
    const { p, calls } = port(async () => ({ files: [file(HEAD)], complete: true }));
    const c = await coverage(goal(HEAD), p);
    expect(c?.line).toContain("#7 at aaaaaaaaaaaa · 1 file, +3 −0");
    expect(c?.files?.files.map((f) => f.filename)).toEqual(["src/a.ts"]);
    expect(calls).toEqual([7]);
  });

  it("leaves the names out when GitHub listed them at another head", async () => {
    const { p } = port(async () => ({ files: [file(LATER)], complete: true }));
    expect((await coverage(goal(HEAD), p))?.files).toBeNull();
    const unsure = port(async () => ({ files: [file(null)], complete: true }));
    expect((await coverage(goal(HEAD), unsure.p))?.files).toBeNull();
  });

  it("reads nothing once the PR moved on or the gate is decided", async () => {
    const { p, calls } = port(async () => ({ files: [file(HEAD)], complete: true }));
    const moved = await coverage(goal(LATER), p);
    expect(moved?.line).toContain("size not read for this head yet");
    expect(moved?.files).toBeNull();
    expect((await coverage(goal(HEAD, "approved"), p))?.files).toBeNull();
    expect(calls).toEqual([]);
  });

  it("a failed listing keeps the line and drops the names; other errors are not swallowed", async () => {
    const refused = port(() => Promise.reject(new GitHubError("Server Error", 502, null)));
    const c = await coverage(goal(HEAD), refused.p);
    expect([c?.line.startsWith("#7 at"), c?.files]).toEqual([true, null]);
    const broken = port(() => Promise.reject(new TypeError("bug")));
    await expect(coverage(goal(HEAD), broken.p)).rejects.toThrow("bug");
  });
});
