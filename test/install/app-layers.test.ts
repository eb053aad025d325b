import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../app/src");

/** The app/src folders a folder's modules import, by relative path (`../api/x.ts` → api). */
function foldersImportedBy(folder: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  for (const name of readdirSync(join(SRC, folder), { recursive: true, encoding: "utf8" })) {
    if (!name.endsWith(".ts")) continue;
    const text = readFileSync(join(SRC, folder, name), "utf8");
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.\.\/[^"]+)"/gm)) {
      const target = /^\.\.\/([^/]+)\//.exec(m[1] ?? "")?.[1];
      if (target) seen.set(target, [...(seen.get(target) ?? []), `${folder}/${name}`]);
    }
  }
  return seen;
}

/**
 * The tick API may start the scheduler's work (a wake dispatches what is due), so the
 * scheduler must not reach back into the API: what both need lives beside them in app/src.
 */
describe("app layers", () => {
  it("scheduler/ imports nothing from api/", () => {
    expect(foldersImportedBy("scheduler").get("api") ?? []).toEqual([]);
  });

  it("the check sees an import: api/ does import scheduler/", () => {
    expect(foldersImportedBy("api").get("scheduler")).toContain("api/wake.ts");
  });
});
