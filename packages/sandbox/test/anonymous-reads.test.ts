/**
 * What GitHub answers a client with no token (REST API endpoints for issue comments, pulls,
 * pull request reviews and check runs: "can be used without authentication ... if only public
 * resources are requested"; Rate limits for the REST API: unauthenticated requests get 60 an
 * hour, and past it a 403 with `x-ratelimit-remaining: 0`): a public repository's reads, a
 * private repository that does not exist for it, no writes, and its own small hourly limit.
 */
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.ts";

const ANONYMOUS_LIMIT = 60;

let sandbox: Sandbox;
const heads = new Map<string, string>();

beforeAll(async () => {
  sandbox = await createSandbox({ secondaryLimits: false });
  for (const [name, isPrivate] of [
    ["acme/open", false],
    ["acme/closed", true],
  ] as const) {
    sandbox.createRepo(name, {
      private: isPrivate,
      files: { "README.md": "# hi\n" },
      collaborators: { alice: "maintain" },
    });
  }
  const alice = new Octokit({ baseUrl: sandbox.url, auth: sandbox.createUserToken("alice") });
  for (const repo of ["open", "closed"]) {
    await alice.rest.issues.create({ owner: "acme", repo, title: "first" });
    await alice.rest.issues.createComment({
      owner: "acme",
      repo,
      issue_number: 1,
      body: "a note",
    });
    sandbox.push(`acme/${repo}`, "topic", { "a.txt": "a\n" }, "alice", "topic");
    const pull = await alice.rest.pulls.create({
      owner: "acme",
      repo,
      head: "topic",
      base: "main",
      title: "topic",
    });
    heads.set(repo, pull.data.head.sha);
  }
});
afterAll(async () => {
  await sandbox?.stop();
});

const get = (path: string) =>
  fetch(`${sandbox.url}${path}`, { headers: { accept: "application/vnd.github+json" } });

describe("anonymous requests", () => {
  it("read a public repository's comments, pulls, reviews and check runs", async () => {
    const reads = [
      "/repos/acme/open/issues/1/comments",
      "/repos/acme/open/pulls?state=open",
      "/repos/acme/open/pulls/2/reviews",
      `/repos/acme/open/commits/${heads.get("open")}/check-runs`,
    ];
    for (const path of reads) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-ratelimit-limit"), path).toBe(String(ANONYMOUS_LIMIT));
    }
    const comments = await (await get(reads[0] ?? "")).json();
    expect(comments).toMatchObject([{ body: "a note", user: { login: "alice" } }]);
  });

  it("find no private repository, and write nothing", async () => {
    const hidden = await get("/repos/acme/closed/issues/1/comments");
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toMatchObject({ message: "Not Found" });
    expect((await get(`/repos/acme/closed/commits/${heads.get("closed")}/check-runs`)).status).toBe(
      404,
    );
    const write = await fetch(`${sandbox.url}/repos/acme/open/issues/1/comments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ body: "drive-by" }),
    });
    expect(write.status).toBe(401);
    expect(sandbox.store.commentsOf(sandbox.repoByFullName("acme/open").id, 1)).toHaveLength(1);
  });

  it("stop at 60 an hour with a 403, while a token's reads go on, until the hour turns", async () => {
    await sandbox.clock.advance(3_600_000);
    const path = "/repos/acme/open/issues/1/comments";
    for (let i = 0; i < ANONYMOUS_LIMIT; i++) expect((await get(path)).status).toBe(200);
    const refused = await get(path);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^API rate limit exceeded for /,
    );
    const alice = new Octokit({ baseUrl: sandbox.url, auth: sandbox.createUserToken("alice") });
    const withToken = await alice.rest.issues.listComments({
      owner: "acme",
      repo: "open",
      issue_number: 1,
    });
    expect(withToken.status).toBe(200);
    await sandbox.clock.advance(3_600_000);
    expect((await get(path)).status).toBe(200);
  });
});
