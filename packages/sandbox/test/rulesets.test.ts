import { afterEach, describe, expect, it } from "vitest";
import { client, o, setup } from "./helpers.ts";

let t: Awaited<ReturnType<typeof setup>> | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});

const checksRule = (contexts: string[]) => ({
  type: "required_status_checks" as const,
  parameters: {
    required_status_checks: contexts.map((context) => ({ context })),
    strict_required_status_checks_policy: false,
  },
});

describe("sandbox: rulesets and the rules of a branch", () => {
  it("returns the required status checks of active rulesets matching the branch, only", async () => {
    t = await setup();
    const acme = client(t.sandbox, t.sandbox.createUserToken("acme"));
    const create = (
      name: string,
      enforcement: "active" | "evaluate" | "disabled",
      include: string[],
      contexts: string[],
      exclude: string[] = [],
    ) =>
      acme.rest.repos.createRepoRuleset({
        ...o,
        name,
        enforcement,
        conditions: { ref_name: { include, exclude } },
        rules: [checksRule(contexts)],
      });
    const main = (await create("main CI", "active", ["~DEFAULT_BRANCH"], ["ci"])).data;
    expect(main).toMatchObject({
      name: "main CI",
      enforcement: "active",
      source_type: "Repository",
    });
    await create(
      "release",
      "active",
      ["refs/heads/release/**"],
      ["e2e"],
      ["refs/heads/release/old"],
    );
    await create("trial", "evaluate", ["~ALL"], ["lint"]);
    await create("off", "disabled", ["~ALL"], ["docs"]);
    const rules = async (branch: string) =>
      (await t?.bot.rest.repos.getBranchRules({ ...o, branch }))?.data.flatMap((r) =>
        r.type === "required_status_checks"
          ? (r.parameters?.required_status_checks.map((c) => c.context) ?? [])
          : [],
      );
    expect(await rules("main")).toEqual(["ci"]);
    // The branch need not exist; `**` spans slashes; excluded refs are left out.
    expect(await rules("release/2026/q1")).toEqual(["e2e"]);
    expect(await rules("release/old")).toEqual([]);
    expect(await rules("feature")).toEqual([]);
    const first = (await t.bot.rest.repos.getBranchRules({ ...o, branch: "main" })).data[0];
    expect(first).toMatchObject({ ruleset_id: main.id, ruleset_source: "acme/widgets" });
  });

  it("only an admin creates a ruleset; a bad one is 422 and stores nothing", async () => {
    t = await setup();
    const body = {
      ...o,
      name: "ci",
      enforcement: "active" as const,
      conditions: { ref_name: { include: ["~ALL"], exclude: [] } },
      rules: [checksRule(["ci"])],
    };
    await expect(t.bob.rest.repos.createRepoRuleset(body)).rejects.toMatchObject({ status: 403 });
    await expect(t.bot.rest.repos.createRepoRuleset(body)).rejects.toMatchObject({ status: 403 });
    const acme = client(t.sandbox, t.sandbox.createUserToken("acme"));
    await expect(
      acme.request("POST /repos/acme/widgets/rulesets", { name: "x", enforcement: "on" }),
    ).rejects.toMatchObject({ status: 422 });
    expect((await t.bot.rest.repos.getBranchRules({ ...o, branch: "main" })).data).toEqual([]);
  });
});
