import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorsText, examples, setup, webhookValidator } from "./helpers.ts";

type SandboxSetup = Awaited<ReturnType<typeof setup>>;

/** Fidelity of the lifecycle acts tests perform: uninstall and repository rename. */
describe("sandbox lifecycle: uninstall and rename", () => {
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

  it("installation.deleted is sent, then the installation is gone", async () => {
    const id = t.installation.id;
    t.sandbox.uninstall(id, "alice");
    const [deleted] = check("installation", "deleted");
    expect(deleted?.payload).toMatchObject({ action: "deleted", installation: { id } });
    expect(t.sandbox.store.installations.has(id)).toBe(false);
  });
});
