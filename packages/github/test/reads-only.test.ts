import { describe, expect, it } from "vitest";
import { type GitHubPort, type GitHubReads, readsOnly } from "../src/index.ts";

describe("readsOnly", () => {
  it("holds the read verbs alone, at run time too: no cast reaches a write", async () => {
    const calls: string[] = [];
    const port = new Proxy({} as GitHubPort, {
      get: (_target, verb) => async () => {
        calls.push(String(verb));
        return verb === "botLogin" ? "loopx[bot]" : null;
      },
    });
    const reads = readsOnly(port);
    expect(await reads.botLogin()).toBe("loopx[bot]");
    const writes = [
      "setIssueBody",
      "setIssueTitle",
      "ensureComment",
      "upsertComment",
      "react",
      "createSubIssue",
      "closeIssue",
      "dispatchWorkflow",
      "requestReviewers",
      "createPull",
      "updatePull",
      "approveRun",
      "cancelRun",
    ];
    for (const verb of writes) expect(verb in reads).toBe(false);
    expect(Object.isFrozen(reads)).toBe(true);
    const readVerbs: (keyof GitHubReads)[] = ["permission", "getIssue", "readConfig", "getPull"];
    for (const verb of readVerbs) expect(typeof reads[verb]).toBe("function");
    expect(calls).toEqual(["botLogin"]);
  });
});
