import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { GOOD_TICK, runLoopx } from "./cli-steps.ts";

const LEAKY_CI = `name: ci
on: [pull_request]
jobs:
  deploy-preview:
    runs-on: ubuntu-latest
    steps:
      - run: ./deploy.sh
        env: { TOKEN: "\${{ secrets.DEPLOY_TOKEN }}" }
`;

/** Scenario: `loopx doctor` checks a repository's setup through the REST API (the sandbox). */
describe("e2e: loopx doctor against the sandbox", () => {
  let sandbox: Sandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await createSandbox();
    const collaborators = { alice: "admin" } as const;
    sandbox.createRepo("acme/good", {
      files: {
        ".github/loopx.yml": "tickWorkflow: loopx-tick.yml\n",
        ".github/workflows/loopx-tick.yml": GOOD_TICK,
      },
      collaborators,
    });
    sandbox.createRepo("acme/bad", {
      files: {
        ".github/loopx.yml": "tickWorkflow: 42\nnotAKey: true\n",
        ".github/workflows/ci.yml": LEAKY_CI,
      },
      collaborators,
    });
    env = { GITHUB_TOKEN: sandbox.createUserToken("alice"), GITHUB_API_URL: sandbox.url };
  });
  afterAll(() => sandbox.stop());

  it("a good repository passes (exit 0)", async () => {
    const r = await runLoopx(["doctor", "acme/good"], env);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("ok   .github/loopx.yml is valid.");
    expect(r.stdout).toContain("is the tick workflow");
    expect(r.stdout).toContain("doctor: no problems found");
    expect(r.code).toBe(0);
  });

  it("a bad repository: invalid config, no tick workflow, secrets on pull_request (exit 1)", async () => {
    const r = await runLoopx(["doctor", "acme/bad"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/fail +\.github\/loopx\.yml tickWorkflow: /);
    expect(r.stdout).toContain(".github/workflows/loopx-tick.yml is missing");
    expect(r.stdout).toContain(
      "job deploy-preview reads secrets on pull_request with no environment",
    );
    const json = await runLoopx(["doctor", "acme/bad", "--json"], env);
    expect(JSON.parse(json.stdout).findings.length).toBeGreaterThanOrEqual(3);
  });

  it("exit codes: 4 for an unknown repository, 2 without a token", async () => {
    expect((await runLoopx(["doctor", "acme/nope"], env)).code).toBe(4);
    const noToken = await runLoopx(["doctor", "acme/good"], { GITHUB_API_URL: sandbox.url });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("GITHUB_TOKEN is not set");
  });
});
