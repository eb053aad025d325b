/**
 * Which real model `--real-model` runs, and what its CLI needs from the environment: the API
 * key (and optionally another endpoint). Checked once, before any cell runs, so a missing key
 * costs nothing but the message that names it.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const RealModelName = z.enum(["claude", "codex"]);
export type RealModelName = z.infer<typeof RealModelName>;

/** A refusal the operator fixes with a flag or a variable; run-loop prints it without a stack. */
export class RealModelError extends Error {}

export interface RealModelSetup {
  name: RealModelName;
  /** The CLI installed with the repository (package.json pins both). */
  bin: string;
  /** The key and endpoint the CLI's process is given; nothing else of the caller's secrets. */
  env: Record<string, string>;
  /** codex only: the Responses API it is pointed at (codex ignores OPENAI_BASE_URL alone). */
  responsesUrl: string | null;
}

const OPENAI_API = "https://api.openai.com/v1";

const NEEDS: Record<RealModelName, { key: string; base: string; what: string; pkg: string }> = {
  claude: {
    key: "ANTHROPIC_API_KEY",
    base: "ANTHROPIC_BASE_URL",
    what: "an Anthropic API key",
    pkg: "@anthropic-ai/claude-code",
  },
  codex: {
    key: "OPENAI_API_KEY",
    base: "OPENAI_BASE_URL",
    what: "an OpenAI API key",
    pkg: "@openai/codex",
  },
};

const BaseUrl = z.url({ protocol: /^https?$/ });

export function realModelSetup(value: string | undefined, env: NodeJS.ProcessEnv): RealModelSetup {
  const parsed = RealModelName.safeParse(value);
  if (!parsed.success) {
    throw new RealModelError(
      `--real-model takes the CLI that runs the model, claude or codex${value ? `, not ${JSON.stringify(value)}` : ""}`,
    );
  }
  const name = parsed.data;
  const need = NEEDS[name];
  const key = env[need.key];
  if (!key) {
    throw new RealModelError(
      `--real-model ${name} needs ${need.key}: set it to ${need.what} (and ${need.base} to reach another endpoint, such as a proxy); no cell was run`,
    );
  }
  const base = env[need.base] || null;
  if (base !== null && !BaseUrl.safeParse(base).success) {
    throw new RealModelError(
      `${need.base} is ${JSON.stringify(base)}, not an http(s) URL: set it to the API's base URL or unset it for the default`,
    );
  }
  const bin = fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
  if (!existsSync(bin)) {
    throw new RealModelError(`${bin} is missing: run npm ci (it installs ${need.pkg})`);
  }
  return {
    name,
    bin,
    env: { [need.key]: key, ...(base !== null && name === "claude" ? { [need.base]: base } : {}) },
    responsesUrl: name === "codex" ? (base ?? OPENAI_API).replace(/\/+$/, "") : null,
  };
}
