import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, errorsText, examples, setup, webhookValidator } from "./helpers.ts";

type SandboxSetup = Awaited<ReturnType<typeof setup>>;

/** Fidelity of the lifecycle acts tests perform: uninstall, permissions accepted, rename. */
describe("sandbox lifecycle: uninstall, new permissions and rename", () => {
  let t: SandboxSetup;
  beforeAll(async () => {
    t = await setup();
  });
  afterAll(() => t.sandbox.stop());

  function check(event: string, action: string) {
    const found = t.sandbox.emitted.filter((e) => e.event === event && e.payload.action === action);
    expect(found.length).toBeGreaterThan(0);
    const validate = webhookValidator(event, action);
    if (!validate) throw new Error(`no schema for ${event}.${action}`);
    for (const { payload } of found) {
      expect(validate(payload), errorsText(validate)).toBe(true);
      const example = examples
        .find((e) => e.name === event)
        ?.examples.find((x) => x.action === action);
      const missing = Object.keys(example ?? {}).filter(
        (k) => !(k in payload) && k !== "organization" && k !== "enterprise",
      );
      expect(missing).toEqual([]);
    }
    return found;
  }

  it("repository.renamed keeps the id, says the old name, and the repository answers by the new one", async () => {
    const repo = t.sandbox.renameRepo("acme/widgets", "gadgets", "alice");
    const [renamed] = check("repository", "renamed");
    expect(renamed?.payload).toMatchObject({
      changes: { repository: { name: { from: "widgets" } } },
      repository: { id: repo.id, name: "gadgets", full_name: "acme/gadgets" },
    });
    t.sandbox.renameRepo("acme/gadgets", "widgets", "alice");
  });

  it("installation.new_permissions_accepted: new tokens carry the permission, tokens minted before do not", async () => {
    const id = t.installation.id;
    t.sandbox.store.installations.get(id)!.permissions.checks = "read";
    const mint = async () => {
      const { data } = await t.appOctokit.rest.apps.createInstallationAccessToken({
        installation_id: id,
      });
      return client(t.sandbox, data.token);
    };
    const before = await mint();
    const { data: main } = await t.alice.rest.repos.getBranch({
      owner: "acme",
      repo: "widgets",
      branch: "main",
    });
    const create = (octokit: Awaited<ReturnType<typeof mint>>) =>
      octokit.rest.checks.create({
        owner: "acme",
        repo: "widgets",
        name: "LoopX / gates",
        head_sha: main.commit.sha,
      });
    await expect(create(before)).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining("Resource not accessible by integration"),
    });
    expect(() => t.sandbox.acceptPermissions(id, { checks: "admin" }, "alice")).toThrow(
      /does not request/,
    );

    t.sandbox.acceptPermissions(id, { checks: "write" }, "alice");
    const [accepted] = check("installation", "new_permissions_accepted");
    expect(accepted?.payload).toMatchObject({
      action: "new_permissions_accepted",
      installation: { id, permissions: { checks: "write" } },
      sender: { login: "alice" },
    });
    await expect(create(before)).rejects.toMatchObject({ status: 403 });
    const { status } = await create(await mint());
    expect(status).toBe(201);
  });

  it("installation.deleted is sent, then the installation is gone", async () => {
    const id = t.installation.id;
    t.sandbox.uninstall(id, "alice");
    const [deleted] = check("installation", "deleted");
    expect(deleted?.payload).toMatchObject({ action: "deleted", installation: { id } });
    expect(t.sandbox.store.installations.has(id)).toBe(false);
  });
});
