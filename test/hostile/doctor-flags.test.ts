import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doctor, type Finding } from "../../packages/cli/src/doctor.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { GOOD_TICK } from "../e2e/cli-steps.ts";

/** A push to any branch (the agent's loopx/* included) runs the tick with every secret. */
const ON_PUSH = `name: tick on push
on: [push, workflow_dispatch]
jobs:
  tick:
    uses: loopx/loopx/.github/workflows/loopx-tick.yml@v1
    permissions: { contents: read, id-token: write }
    with: { goal: "1" }
    secrets: inherit
`;

/** pull_request_target runs with the base's secrets and a write token, on a stranger's PR. */
const ON_PR_TARGET = `name: agent on PRs
on:
  pull_request_target:
    types: [opened]
jobs:
  agent:
    runs-on: ubuntu-latest
    permissions: { contents: read }
    steps:
      - uses: actions/checkout@v4
      - uses: loopx/loopx@v1
        with: { phase: agent, tick-dir: /tmp/t }
`;

/** The action run by hand, the agent job holding a write token (explicit, and by default). */
const AGENT_WRITES = `name: hand-rolled tick
on: workflow_dispatch
permissions: { contents: write }
jobs:
  agent:
    runs-on: ubuntu-latest
    steps:
      - uses: loopx/loopx@v1.2.0
        with: { phase: agent }
  agent-too:
    runs-on: ubuntu-latest
    permissions: write-all
    steps:
      - uses: loopx/loopx@v1
        with:
          phase: agent
`;

const DEFAULT_PERMISSIONS = `name: no permissions said
on: workflow_dispatch
jobs:
  agent:
    runs-on: ubuntu-latest
    steps:
      - uses: loopx/loopx@v1
        with: { phase: agent }
`;

/** Unrelated to LoopX: a push workflow with secrets: inherit is not LoopX's business. */
const UNRELATED = `name: release
on: push
jobs:
  release:
    uses: acme/shared/.github/workflows/release.yml@v3
    secrets: inherit
`;

/**
 * `loopx doctor` flags caller workflows that hand LoopX's agent more than it should have:
 * triggered by push or pull_request_target, `secrets: inherit`, and write permissions (or
 * the repository's default token) on the agent job. A sound setup is not flagged.
 */
describe("hostile: loopx doctor flags callers that widen what the agent can reach", () => {
  let sandbox: Sandbox;
  let octokit: Octokit;
  beforeAll(async () => {
    sandbox = await createSandbox();
    const collaborators = { alice: "admin" } as const;
    sandbox.createRepo("acme/sound", {
      files: {
        ".github/workflows/loopx-tick.yml": GOOD_TICK,
        ".github/workflows/release.yml": UNRELATED,
      },
      collaborators,
    });
    sandbox.createRepo("acme/leaky", {
      files: {
        ".github/workflows/loopx-tick.yml": GOOD_TICK,
        ".github/workflows/on-push.yml": ON_PUSH,
        ".github/workflows/on-pr-target.yml": ON_PR_TARGET,
        ".github/workflows/agent-writes.yml": AGENT_WRITES,
        ".github/workflows/default-permissions.yml": DEFAULT_PERMISSIONS,
      },
      collaborators,
    });
    octokit = new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
  });
  afterAll(() => sandbox.stop());

  const problems = (findings: Finding[], file: string) =>
    findings.filter((f) => f.level !== "ok" && f.message.startsWith(`.github/workflows/${file}`));

  it("a sound tick workflow and an unrelated push workflow are not flagged", async () => {
    const findings = await doctor(octokit, "acme", "sound");
    expect(findings.filter((f) => f.level === "fail")).toEqual([]);
    expect(problems(findings, "release.yml")).toEqual([]);
  });

  it("push and pull_request_target triggers that reach LoopX fail", async () => {
    const findings = await doctor(octokit, "acme", "leaky");
    const push = problems(findings, "on-push.yml");
    expect(push.some((f) => f.level === "fail" && f.message.includes("push"))).toBe(true);
    const target = problems(findings, "on-pr-target.yml");
    expect(
      target.some((f) => f.level === "fail" && f.message.includes("pull_request_target")),
    ).toBe(true);
  });

  it("secrets: inherit on a job that calls LoopX fails", async () => {
    const findings = await doctor(octokit, "acme", "leaky");
    expect(
      problems(findings, "on-push.yml").some(
        (f) => f.level === "fail" && f.message.includes("secrets: inherit"),
      ),
    ).toBe(true);
  });

  it("write permissions on the agent job fail, the repository default warns", async () => {
    const findings = await doctor(octokit, "acme", "leaky");
    const writes = problems(findings, "agent-writes.yml").filter((f) => f.level === "fail");
    expect(writes.map((f) => f.message.match(/job (\S+)/)?.[1]).sort()).toEqual([
      "agent",
      "agent-too",
    ]);
    const unsaid = problems(findings, "default-permissions.yml");
    expect(unsaid.some((f) => f.message.includes("no permissions"))).toBe(true);
  });
});
