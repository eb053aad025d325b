/**
 * `--settings <path>`: a deployment's settings as KEY=VALUE lines (the format `node --settings`
 * and docker read), laid over the environment. The demo writes one for its running stack, so
 * `loopx doctor --settings .loopx/demo.env` checks the demo's deployment as it is.
 */
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { CliError, EXIT } from "./api-client.ts";

export function withSettingsFile(
  env: Readonly<Record<string, string | undefined>>,
  path: string | undefined,
): Readonly<Record<string, string | undefined>> {
  if (path === undefined) return env;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CliError(
      `--settings ${path} cannot be read (${why}): pass a file of KEY=VALUE lines.`,
      EXIT.usage,
    );
  }
  // The file is the deployment asked about: it wins over what this shell happens to export.
  return { ...env, ...parseEnv(text) };
}
