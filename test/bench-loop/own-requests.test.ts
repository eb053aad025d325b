/**
 * The requests a cell charges to its arm are the ones made with the arm's own credentials —
 * an App's JWT or an installation token — read from the sandbox's log, never the world's
 * people acting with their user tokens, nor unauthenticated reads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { installJobIdentity } from "../../bench/loop/arms/plain-loop/github.ts";
import { ownRequests } from "../../bench/loop/cell-metrics.ts";
import { RepoRest } from "../../bench/loop/world/rest.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("the requests a cell charges to its arm", () => {
  it("counts installation-token requests and their content-creating ones, not a person's", async () => {
    sandbox.createRepo("bench/own", { files: { "README.md": "hi\n" }, private: false });
    const job = installJobIdentity(sandbox, "bench/own", "own-loop");
    const before = ownRequests(sandbox).length;
    // The arm's job: a read and an issue it opens.
    const rest = job.client();
    await rest.call("GET", "/issues?state=all", z.unknown());
    await rest.createIssue("from the loop", "body");
    // A person and an anonymous reader: the world's, not the arm's.
    const person = new RepoRest(sandbox.url, "bench/own", sandbox.createUserToken("maintainer"));
    await person.createIssue("from a person", "body");
    await fetch(`${sandbox.url}/repos/bench/own/issues`);
    const own = ownRequests(sandbox).slice(before);
    expect(own.map((r) => `${r.method} ${r.route}`)).toEqual([
      "GET /repos/{owner}/{repo}/issues",
      "POST /repos/{owner}/{repo}/issues",
    ]);
    expect(own.filter((r) => r.contentCreating)).toHaveLength(1);
  });
});
