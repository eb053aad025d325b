import { createServer } from "node:http";
import { ApiError, AskResponse, type GoalState } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAction } from "../../action/test/support/run-action.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { idTokenEnv } from "../support/tick-phases.ts";

/**
 * Hostile calls to the tick API, each refused with the status the Action branches on and an
 * ApiError body — and nothing changed: no goal version bump, no GitHub request.
 */
describe("tick API: hostile calls are refused and change nothing", () => {
  let h: TickHarness;
  let goal: GoalState;
  let issue: number;
  beforeAll(async () => {
    h = await startTickHarness();
    goal = await h.startGoal("Harden the parser", ["Fuzz the tokenizer"]);
    issue = goal.goal.issue.number;
    // Warm the App's cache of the repository's default branch and config, as any earlier
    // tick would: from then on a refusal costs no GitHub request at all.
    const warm = await h.post("/api/v1/wake", {}, await h.token(9000, { event_name: "schedule" }));
    expect(warm.status).toBe(200);
  });
  afterAll(() => h.close());

  const version = async () => (await h.store.loadGoal(goal.goal.id))?.goal.version;

  async function refused(
    token: string | null,
    status: number,
    code: ApiError["error"],
    body: unknown = { goal: issue },
    path = "/api/v1/ticks",
  ) {
    // Writes queued by earlier, accepted calls (a claim's status update) must not be
    // counted against this refusal.
    await h.settle();
    const v = await version();
    const requests = h.sandbox.requests().length;
    const answer = await h.post(path, body, token);
    expect(answer.status).toBe(status);
    const error = ApiError.parse(answer.body);
    expect(error.error).toBe(code);
    expect(await version()).toBe(v);
    expect(h.requestsSince(requests)).toBe(0);
    return error.message;
  }

  it("no token at all", async () => {
    expect(await refused(null, 401, "unauthenticated")).toContain("id-token: write");
  });

  it("a token minted for another audience", async () => {
    const token = await h.token(9001, {}, { audience: "https://github.com/acme" });
    expect(await refused(token, 401, "unauthenticated")).toContain('"aud"');
  });

  it("an expired token", async () => {
    const token = await h.token(9002, {}, { ttlSeconds: -600 });
    expect(await refused(token, 401, "unauthenticated")).toContain("expired");
  });

  it("another repository with the same name (a different id)", async () => {
    const token = await h.token(9003, { repository_id: String(h.repo.id + 1000) });
    expect(await refused(token, 403, "forbidden")).toContain("repository id");
  });

  it("the right repository id under another owner id", async () => {
    const token = await h.token(9004, { repository_owner_id: String(h.repo.ownerId + 1000) });
    expect(await refused(token, 403, "forbidden")).toContain("owner id");
  });

  it("a job running an unlisted workflow ref", async () => {
    const token = await h.token(9005, {
      job_workflow_ref: "mallory/tools/.github/workflows/steal.yml@refs/heads/main",
    });
    expect(await refused(token, 403, "forbidden")).toContain("mallory/tools");
  });

  it("the reusable tick workflow pinned to a SHA that is no LoopX release (a fork's commit resolves under loopx/loopx too)", async () => {
    const token = await h.token(9014, {
      job_workflow_ref: `loopx/loopx/.github/workflows/loopx-tick.yml@${"ab".repeat(20)}`,
    });
    expect(await refused(token, 403, "forbidden")).toContain("not the repository's tick workflow");
  });

  it("the tick workflow run from another branch", async () => {
    const ref = "acme/widgets/.github/workflows/loopx-tick.yml@refs/heads/loopx/1-T1";
    const token = await h.token(9006, { workflow_ref: ref, job_workflow_ref: ref });
    expect(await refused(token, 403, "forbidden")).toContain("default branch");
  });

  it("accepts the documented wake caller: loopx-wake.yml calling LoopX's shipped wake workflow at a tag", async () => {
    const answer = await h.post(
      "/api/v1/wake",
      {},
      await h.token(9015, {
        event_name: "schedule",
        workflow_ref: `${h.repo.fullName}/.github/workflows/loopx-wake.yml@refs/heads/main`,
        job_workflow_ref: "loopx/loopx/.github/workflows/loopx-wake.yml@refs/tags/v1",
      }),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it("a pull_request event", async () => {
    const token = await h.token(9007, { event_name: "pull_request" });
    expect(await refused(token, 403, "forbidden")).toContain("pull_request");
  });

  it("an oversized body (413)", async () => {
    const token = await h.token(9008);
    const huge = { goal: issue, padding: "x".repeat(300 * 1024) };
    await refused(token, 413, "invalid_request", huge);
  });

  it("a replayed jti", async () => {
    // A token is spent the moment it is admitted (before any other check): used once.
    const token = await h.token(9009, { event_name: "schedule" });
    const first = await h.post("/api/v1/wake", {}, token);
    expect(first.status).toBe(200);
    expect(await refused(token, 401, "unauthenticated", {}, "/api/v1/wake")).toContain(
      "already used",
    );
  });

  describe("against a live claim", () => {
    let tickId: string;
    let leaseToken: string;
    const result = {
      todo: "T1",
      outcome: "no_change",
      handoff: { done: "Nothing yet.", next: "Fuzz.", questions: [] },
      cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
    };

    beforeAll(async () => {
      const asked = await h.post("/api/v1/ticks", { goal: issue }, await h.token(7001));
      const claim = AskResponse.parse(asked.body);
      if (!claim.run) throw new Error(`expected a run: ${claim.reason}`);
      tickId = claim.tickId;
      leaseToken = claim.leaseToken;
    });

    it("a second claim from the same run attempt (409)", async () => {
      const message = await refused(await h.token(7001), 409, "conflict");
      expect(message).toContain("one claim per run attempt");
    });

    it("a result with the wrong lease token (409), the tick still open", async () => {
      const body = { leaseToken: "x".repeat(43), result };
      await refused(await h.token(7001), 409, "conflict", body, `/api/v1/ticks/${tickId}/result`);
      const tick = (await h.store.loadGoal(goal.goal.id))?.ticks.find((t) => t.id === tickId);
      expect(tick?.finishedAt).toBeNull();
    });

    it("a result with a token from another run (403)", async () => {
      const body = { leaseToken, result };
      const message = await refused(
        await h.token(7002),
        403,
        "forbidden",
        body,
        `/api/v1/ticks/${tickId}/result`,
      );
      expect(message).toContain("run 7001");
    });

    it("the right run, the right lease: accepted once, a duplicate is 409", async () => {
      const body = { leaseToken, result };
      const ok = await h.post(`/api/v1/ticks/${tickId}/result`, body, await h.token(7001));
      expect(ok.status).toBe(200);
      await refused(await h.token(7001), 409, "conflict", body, `/api/v1/ticks/${tickId}/result`);
    });
  });
  /**
   * Each deployment's tokens are its own: the action asks for an ID token for its `api-url`
   * (no `audience` input), the App accepts only its own URL (LOOPX_PUBLIC_URL), so a token the
   * action minted for one LoopX deployment is refused by every other.
   */
  describe("the audience is the deployment's own", () => {
    const github = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_RUN_ID: "9300" };

    it("the action's default token is accepted by its own deployment", async () => {
      const wake = await runAction(
        { phase: "wake", "api-url": h.apiUrl },
        { ...github, ...idTokenEnv(h, 9300) },
      );
      expect(wake.code, wake.stdout + wake.stderr).toBe(0);
    });

    it("a token the action minted for another deployment is refused", async () => {
      // Another LoopX deployment, one that keeps the bearer tokens it is sent.
      const seen: string[] = [];
      const other = createServer((req, res) => {
        seen.push(String(req.headers.authorization ?? "").replace(/^Bearer /i, ""));
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "unauthenticated", message: "no" }));
      });
      await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
      const address = other.address();
      if (!address || typeof address === "string") throw new Error("no port");
      try {
        await runAction(
          { phase: "wake", "api-url": `http://127.0.0.1:${address.port}` },
          { ...github, ...idTokenEnv(h, 9301) },
        );
      } finally {
        await new Promise((resolve) => other.close(resolve));
      }
      const stolen = seen.find((t) => t.split(".").length === 3);
      if (!stolen) throw new Error("the other deployment received no token");
      const message = await refused(stolen, 401, "unauthenticated", {}, "/api/v1/wake");
      expect(message).toContain(`expected "${h.apiUrl}"`);
    });
  });
});
