import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";

const ROOT = resolve(import.meta.dirname, "../..");

const Workflow = z.object({
  on: z.record(z.string(), z.unknown()),
  permissions: z.record(z.string(), z.string()),
  jobs: z.record(
    z.string(),
    z.object({
      if: z.string().optional(),
      permissions: z.record(z.string(), z.string()).optional(),
      steps: z.array(z.object({ uses: z.string().optional(), run: z.string().optional() })),
    }),
  ),
});
const load = (file: string) =>
  Workflow.parse(parse(readFileSync(join(ROOT, ".github/workflows", file), "utf8")));
const runs = (w: z.infer<typeof Workflow>) =>
  Object.values(w.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));

/** Scenario: LoopX's own workflows gate changes and releases on what a change must pass. */
describe("install: the project's CI and release workflows", () => {
  it("CI runs npm run all on pushes to main and on every pull request, reading only", () => {
    const ci = load("ci.yml");
    expect(ci.on.push).toEqual({ branches: ["main"] });
    expect(Object.keys(ci.on)).toContain("pull_request");
    expect(ci.permissions).toEqual({ contents: "read" });
    expect(runs(ci).some((r) => /(^|\s)npm run all$/m.test(r))).toBe(true);
  });

  it("the release runs scripts/release.ts with its checks (npm run all), from main, dry run by default", () => {
    const release = load("release.yml");
    const dispatch = z
      .object({
        inputs: z.object({
          version: z.object({ required: z.literal(true) }),
          "dry-run": z.object({ type: z.literal("boolean"), default: z.literal(true) }),
        }),
      })
      .parse(release.on.workflow_dispatch);
    expect(dispatch.inputs.version.required).toBe(true);
    expect(release.permissions).toEqual({});
    const [job, ...others] = Object.values(release.jobs);
    expect(others).toEqual([]);
    expect(job?.if).toBe("github.ref == 'refs/heads/main'");
    expect(job?.permissions).toEqual({ contents: "write" });
    const step = runs(release).find((r) => r.includes("npm run release"));
    expect(step).toMatch(/npm run release -- "\$VERSION" \$DRY_RUN$/m);
    // The script's own checks (npm run all, the action/dist check) are not overridden.
    expect(step).not.toContain("--check");
    expect(step).not.toContain("--build");
  });
});
