/**
 * Jobs as GitHub-hosted runners run them, and the services a job reaches with its runtime token:
 * - About GitHub-hosted runners ("Administrative privileges": passwordless sudo) and the
 *   runner images' `runner` user;
 * - Store information in variables ("Default environment variables"), Workflow commands
 *   ("Environment files": GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH);
 * - OpenID Connect ("Adding permissions settings": ACTIONS_ID_TOKEN_REQUEST_* only with
 *   `id-token: write`);
 * - Workflow syntax ("cache-mode"), changelog 2026-09-10 "Control GitHub Actions cache access".
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, giveToRunner, type Sandbox } from "../src/index.ts";
import { tempDir } from "./git-support.ts";
import { dispatchRun } from "./helpers.ts";

// A JavaScript action whose child reads its parent's environment, as a harness could.
const PEEK = `import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
const seen = execFileSync("bash", ["-c", "tr '\\\\0' '\\\\n' < /proc/$PPID/environ | cut -d= -f1"]).toString();
appendFileSync(process.env.GITHUB_OUTPUT, "names=" + seen.split("\\n").filter((n) => /^(ACTIONS_|INPUT_)/.test(n)).sort().join(",") + "\\n");
`;

// Saves or restores a cache entry through ACTIONS_CACHE_URL with the runtime token.
const CACHE = `import { writeFileSync } from "node:fs";
const env = process.env;
const base = env.ACTIONS_CACHE_URL + "_apis/artifactcache/";
const h = { authorization: "Bearer " + env.ACTIONS_RUNTIME_TOKEN, "content-type": "application/json" };
const out = { token: env.ACTIONS_RUNTIME_TOKEN };
const lookup = await fetch(base + "cache?keys=deps-&version=v1", { headers: h });
out.restore = lookup.status;
if (lookup.status === 200) out.bytes = await (await fetch((await lookup.json()).archiveLocation)).text();
const reserve = await fetch(base + "caches", { method: "POST", headers: h, body: JSON.stringify({ key: "deps-" + env.WHO, version: "v1" }) });
out.save = reserve.status;
if (reserve.status === 201) {
  const { cacheId } = await reserve.json();
  await fetch(base + "caches/" + cacheId, { method: "PATCH", headers: { ...h, "content-type": "application/octet-stream", "content-range": "bytes 0-4/*" }, body: "bytes" });
  await fetch(base + "caches/" + cacheId, { method: "POST", headers: h, body: JSON.stringify({ size: 5 }) });
}
writeFileSync(env.OUT + "/cache-" + env.WHO + ".json", JSON.stringify(out));
`;

const ENV_WORKFLOW = `on: workflow_dispatch
jobs:
  plain:
    runs-on: ubuntu-latest
    permissions: { contents: read }
    outputs:
      names: \${{ steps.peek.outputs.names }}
    steps:
      - run: |
          { id -un; id -u; sudo -n id -u; echo "$HOME"; echo "$RUNNER_TEMP"; } > "\${{ vars.OUT }}/who.txt"
          env | cut -d= -f1 | sort > "\${{ vars.OUT }}/plain-env.txt"
          mkdir -p "$RUNNER_TEMP/bin" && printf '#!/bin/sh\\necho from-path\\n' > "$RUNNER_TEMP/bin/hello" && chmod +x "$RUNNER_TEMP/bin/hello"
          echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
      - run: hello > "\${{ vars.OUT }}/path.txt"
      - id: peek
        uses: ./peek
  oidc:
    runs-on: ubuntu-latest
    permissions: { id-token: write }
    steps:
      - run: env | cut -d= -f1 | sort > "\${{ vars.OUT }}/oidc-env.txt"
  save:
    runs-on: ubuntu-latest
    steps:
      - run: WHO=save OUT="\${{ vars.OUT }}" node "\${{ vars.OUT }}/cache.mjs"
  restore:
    needs: save
    runs-on: ubuntu-latest
    cache-mode: read
    steps:
      - run: WHO=restore OUT="\${{ vars.OUT }}" node "\${{ vars.OUT }}/cache.mjs"
  none:
    needs: save
    runs-on: ubuntu-latest
    cache-mode: none
    steps:
      - run: WHO=none OUT="\${{ vars.OUT }}" node "\${{ vars.OUT }}/cache.mjs"
`;

const CANCEL_WORKFLOW = `on: workflow_dispatch
jobs:
  work:
    runs-on: ubuntu-latest
    steps:
      - run: |
          trap 'echo INT >> "$OUT/signals"' INT
          trap 'echo TERM >> "$OUT/signals"' TERM
          echo started > "$OUT/started-\${{ github.run_id }}"
          while true; do sleep 0.2; done
        env: { OUT: "\${{ vars.OUT }}" }
      - run: echo ran > "\${{ vars.OUT }}/step-plain-\${{ github.run_id }}"
      - if: always()
        run: echo ran > "\${{ vars.OUT }}/step-always-\${{ github.run_id }}"
      - if: cancelled()
        run: echo ran > "\${{ vars.OUT }}/step-cancelled-\${{ github.run_id }}"
  report:
    needs: work
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ needs.work.result }}" > "\${{ vars.OUT }}/report-\${{ github.run_id }}"
  later:
    needs: work
    runs-on: ubuntu-latest
    steps:
      - run: echo ran > "\${{ vars.OUT }}/later"
`;

let sandbox: Sandbox;
let out: string;
let token: string;

const dispatch = (workflow: string) => dispatchRun(sandbox, workflow, token);

const post = (path: string) =>
  fetch(`${sandbox.url}/repos/acme/widgets/actions/runs/${path}`, {
    method: "POST",
    headers: { authorization: `token ${token}` },
  });

const text = (name: string) => readFileSync(join(out, name), "utf8");

async function started(runId: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      text(`started-${runId}`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error("the step never started");
}

describe("the runner's jobs", () => {
  beforeAll(async () => {
    sandbox = await createSandbox({ secondaryLimits: false });
    out = tempDir("runner-env-");
    writeFileSync(join(out, "cache.mjs"), CACHE);
    giveToRunner(out);
    sandbox.createRepo("acme/widgets", {
      files: {
        ".github/workflows/env.yml": ENV_WORKFLOW,
        ".github/workflows/cancel.yml": CANCEL_WORKFLOW,
        "peek/action.yml": "name: Peek\nruns:\n  using: node24\n  main: index.mjs\n",
        "peek/index.mjs": PEEK,
      },
    });
    sandbox.runner.vars = { OUT: out };
    token = sandbox.createUserToken("acme");
  });
  afterAll(() => sandbox.stop());

  it("run as the non-root runner user with passwordless sudo and the environment GitHub gives", async () => {
    const runId = await dispatch("env.yml");
    const run = await sandbox.runner.wait(runId);
    const jobs = sandbox.run(runId)?.jobs ?? [];
    expect(run.conclusion, jobs.map((j) => `${j.key}\n${j.log}`).join("\n")).toBe("success");
    const [user, uid, sudoUid, home, temp] = text("who.txt").trim().split("\n");
    expect(user).toBe("runner");
    expect(uid).not.toBe("0");
    expect(sudoUid).toBe("0");
    expect(home).not.toBe(process.env.HOME);
    expect(temp).toMatch(/\S/);
    // GITHUB_PATH entries reach the later steps' PATH.
    expect(text("path.txt").trim()).toBe("from-path");
    const plain = text("plain-env.txt").split("\n");
    for (const name of [
      "ACTIONS_RUNTIME_TOKEN",
      "ACTIONS_RESULTS_URL",
      "ACTIONS_CACHE_URL",
      "GITHUB_ENV",
      "GITHUB_OUTPUT",
      "GITHUB_PATH",
      "GITHUB_STEP_SUMMARY",
      "RUNNER_TEMP",
    ])
      expect(plain, name).toContain(name);
    // The OIDC request variables come only with id-token: write.
    expect(plain).not.toContain("ACTIONS_ID_TOKEN_REQUEST_TOKEN");
    expect(text("oidc-env.txt").split("\n")).toContain("ACTIONS_ID_TOKEN_REQUEST_TOKEN");
    // A JavaScript action's child can read its parent's environment: the runtime token is there.
    expect(jobs.find((j) => j.key === "plain")?.outputs.names?.split(",")).toContain(
      "ACTIONS_RUNTIME_TOKEN",
    );
  });

  it("serve the cache through the runtime token, honouring each job's cache-mode, and revoke the token when the job ends", async () => {
    const cache = (who: string) => JSON.parse(text(`cache-${who}.json`));
    expect(cache("save")).toMatchObject({ restore: 204, save: 201 });
    expect(cache("restore")).toMatchObject({ restore: 200, bytes: "bytes", save: 403 });
    expect(cache("none")).toMatchObject({ restore: 403, save: 403 });
    const after = await fetch(`${sandbox.url}/_apis/artifactcache/cache?keys=deps-&version=v1`, {
      headers: { authorization: `Bearer ${cache("save").token}` },
    });
    expect(after.status).toBe(401);
  });

  it("cancel as GitHub does: SIGINT, SIGTERM 7.5 s later, then the tree; always() jobs still run; the run is cancelled", async () => {
    const runId = await dispatch("cancel.yml");
    await started(runId);
    expect((await post(`${runId}/cancel`)).status).toBe(202);
    const run = await sandbox.runner.wait(runId);
    expect(run.conclusion).toBe("cancelled");
    expect(text("signals").trim().split("\n")).toEqual(["INT", "TERM"]);
    expect(text(`report-${runId}`).trim()).toBe("cancelled");
    expect(() => text("later")).toThrow();
    // In the cancelled job, the steps whose `if` still holds run: always() and cancelled().
    expect(() => text(`step-plain-${runId}`)).toThrow();
    expect(text(`step-always-${runId}`).trim()).toBe("ran");
    expect(text(`step-cancelled-${runId}`).trim()).toBe("ran");
    expect((await post(`${runId}/cancel`)).status).toBe(409);
  });

  it("force-cancel stops everything at once, always() jobs included", async () => {
    const runId = await dispatch("cancel.yml");
    await started(runId);
    expect((await post(`${runId}/force-cancel`)).status).toBe(202);
    const run = await sandbox.runner.wait(runId);
    expect(run.conclusion).toBe("cancelled");
    expect(() => text(`report-${runId}`)).toThrow();
    expect(() => text(`step-always-${runId}`)).toThrow();
    expect(() => text(`step-cancelled-${runId}`)).toThrow();
    const jobs = sandbox.run(runId)?.jobs ?? [];
    expect(jobs.find((j) => j.key === "work")?.conclusion).toBe("cancelled");
  });
});
