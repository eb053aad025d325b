import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = resolve(import.meta.dirname, "../..");
const WORKSPACES = [
  "app",
  "action",
  ...readdirSync(join(ROOT, "packages")).map((p) => `packages/${p}`),
];
/** What a workspace runs with but never imports: the TypeScript loader `npm start` and the bin use. */
const LOADERS: Record<string, string[]> = { app: ["tsx"] };

const Manifest = z.object({ dependencies: z.record(z.string(), z.string()).default({}) });

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The packages a workspace's src imports (static, dynamic and re-exports), node: builtins aside. */
function importedPackages(workspace: string): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(join(ROOT, workspace, "src"))) {
    // Only import and export statements, not text inside the demo's generated files.
    for (const m of readFileSync(file, "utf8").matchAll(
      /^(?:import|export)\b[^;]*?\bfrom\s+"([^".][^"]*)"|^\s*(?:await\s+)?import\("([^".][^"]*)"\)/gm,
    )) {
      const spec = m[1] ?? m[2] ?? "";
      if (spec.startsWith("node:")) continue;
      const parts = spec.split("/");
      names.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec));
    }
  }
  return [...names].sort();
}

describe("each workspace's package.json declares exactly what its src imports", () => {
  it.each(WORKSPACES)("%s", (workspace) => {
    const manifest = Manifest.parse(
      JSON.parse(readFileSync(join(ROOT, workspace, "package.json"), "utf8")),
    );
    const expected = [...importedPackages(workspace), ...(LOADERS[workspace] ?? [])].sort();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(expected);
  });
});
