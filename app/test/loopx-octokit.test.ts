/**
 * The App's Octokit neither retries nor throttles in process, for its App token and for the
 * installation tokens Probot mints from it: a refusal reaches the outbox at once, which
 * retries durably. Probot hands every Octokit it builds throttle handlers of its own; were they
 * to switch the throttling plugin back on, it would queue every write a second or more behind
 * the last and take GitHub's rate-limit answers for itself.
 */
import { Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { LoopxOctokit } from "../src/github/loopx-octokit.ts";

let sandbox: Sandbox;
let probot: Probot;
let installationId: number;
beforeAll(async () => {
  sandbox = await createSandbox();
  sandbox.createRepo("acme/widgets", { collaborators: { alice: "write" } });
  const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");
  installationId = sandbox.install(app.id, "acme", ["acme/widgets"]).id;
  probot = new Probot({
    appId: app.id,
    privateKey,
    baseUrl: sandbox.gheUrl,
    Octokit: LoopxOctokit,
    logLevel: "fatal",
  });
});
afterAll(async () => {
  await sandbox?.stop();
});

type Octokit = InstanceType<typeof LoopxOctokit>;
const commentOn = (octokit: Octokit) =>
  octokit.rest.issues.createComment({
    owner: "acme",
    repo: "widgets",
    issue_number: 1,
    body: "hi",
  });

const createComments = () =>
  sandbox.requests().filter((r) => r.method === "POST" && r.path.endsWith("/issues/1/comments"));

describe("LoopxOctokit", () => {
  it("hands a 429 with retry-after straight back, for an installation", async () => {
    const octokit = await probot.auth(installationId);
    const issue = await octokit.rest.issues.create({ owner: "acme", repo: "widgets", title: "x" });
    expect(issue.data.number).toBe(1);
    const before = createComments().length;
    sandbox.faults.route({ route: "issues/create-comment", status: 429, retryAfter: 0, times: 1 });
    const refused = commentOn(octokit);
    await expect(refused).rejects.toMatchObject({ status: 429 });
    // One attempt, not a second one queued behind the retry-after.
    expect(createComments().length - before).toBe(1);
  });

  it("hands a 502 straight back instead of retrying it", async () => {
    const octokit = await probot.auth(installationId);
    const before = createComments().length;
    sandbox.faults.route({ route: "issues/create-comment", status: 502, times: 1 });
    const refused = commentOn(octokit);
    await expect(refused).rejects.toMatchObject({ status: 502 });
    expect(createComments().length - before).toBe(1);
  });

  it("keeps throttling off when an instance brings its own throttle handlers, as Probot's do", async () => {
    const onSecondaryRateLimit = vi.fn(() => false);
    const onRateLimit = vi.fn(() => false);
    const octokit = new LoopxOctokit({
      baseUrl: sandbox.gheUrl,
      auth: { token: sandbox.createUserToken("alice") },
      throttle: { onSecondaryRateLimit, onRateLimit },
    });
    sandbox.faults.route({ route: "issues/create-comment", status: 403, retryAfter: 0, times: 1 });
    const refused = commentOn(octokit);
    await expect(refused).rejects.toMatchObject({ status: 403 });
    // The throttling plugin would have seen GitHub's secondary-limit answer and called these.
    expect(onSecondaryRateLimit).not.toHaveBeenCalled();
    expect(onRateLimit).not.toHaveBeenCalled();
  });

  it("turns both off for the App's own token too", async () => {
    const app = await probot.auth();
    sandbox.faults.route({ route: "apps/get-authenticated", status: 503, times: 1 });
    await expect(app.rest.apps.getAuthenticated()).rejects.toMatchObject({ status: 503 });
    const { data } = await app.rest.apps.getAuthenticated();
    expect(data?.slug).toBe("loopx");
  });
});
