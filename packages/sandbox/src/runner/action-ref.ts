import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import type { Store } from "../state/store.ts";
import { resolveUses, UsesError } from "./resolve-uses.ts";

/** What a step's `uses:` runs: a JavaScript entry with the defaults of its inputs. */
export interface ActionEntry {
  entry: string;
  inputs: Record<string, string>;
}

const actionYml = z.object({
  inputs: z
    .record(
      z.string(),
      z.object({ default: z.union([z.string(), z.number(), z.boolean()]).optional() }).nullable(),
    )
    .optional(),
  runs: z.object({ using: z.string(), main: z.string().optional() }),
});

/** Reads an action's metadata file (action.yml or action.yaml) from a directory. */
export function readActionDir(dir: string, label: string): ActionEntry {
  const file = ["action.yml", "action.yaml"].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new UsesError(`Can't find 'action.yml' or 'action.yaml' for action '${label}'`);
  const meta = actionYml.safeParse(parse(readFileSync(file, "utf8")));
  if (!meta.success) throw new UsesError(`'${label}': its action.yml is not valid metadata`);
  const { runs, inputs } = meta.data;
  if (!/^node\d+$/.test(runs.using) || !runs.main) {
    throw new UsesError(
      `'${label}' runs with '${runs.using}': the sandbox runner runs JavaScript actions only (runs.using: node20/node24)`,
    );
  }
  const defaults: Record<string, string> = {};
  for (const [name, spec] of Object.entries(inputs ?? {}))
    if (spec?.default !== undefined) defaults[name] = String(spec.default);
  return { entry: join(dir, runs.main), inputs: defaults };
}

/**
 * Fetches `owner/repo[/path]@ref` from a repository the sandbox hosts into the job's
 * `_actions` directory, as the runner downloads an action before the job's steps run
 * (Workflow syntax, "jobs.<job_id>.steps[*].uses": `{owner}/{repo}@{ref}` and
 * `{owner}/{repo}/{path}@{ref}`), and reads its action.yml.
 */
export function fetchAction(store: Store, uses: string, actionsDir: string): ActionEntry {
  const found = resolveUses(store, uses);
  const dir = join(actionsDir, store.fullName(found.repo), found.sha);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync("git", ["--git-dir", found.git.dir, "archive", found.sha], {
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
  }
  return readActionDir(found.path ? join(dir, found.path) : dir, uses);
}
