/**
 * The tick harness with the repository's tick workflow running the real `codex` against a
 * scripted Responses server: its key is a repository secret and its URL the `OPENAI_BASE_URL`
 * variable, as a user would set them. `path` is the PATH the runner's jobs get (with or
 * without bubblewrap).
 */

import {
  type OpenAIScriptStep,
  type ScriptedOpenAI,
  startScriptedOpenAI,
} from "@loopx/sandbox/models";
import { type ModelTicks, startModelTicks } from "./model-ticks.ts";

export function startCodexTicks(opts: {
  serverUrl: string;
  turns: OpenAIScriptStep[];
  /** The model id the scripted server answers as. */
  modelId: string;
  apiKey: string;
  /** `.github/loopx.yml` lines after the harness block. */
  configLines?: string[];
  /** The jobs' PATH; the process's PATH is restored on close. */
  path: string;
  /** Repository variables besides OPENAI_BASE_URL. */
  vars?: Record<string, string>;
}): Promise<ModelTicks<ScriptedOpenAI>> {
  const savedPath = process.env.PATH;
  // The sandbox's runner hands its own PATH to every job, as a hosted runner's image does.
  process.env.PATH = opts.path;
  return startModelTicks({
    serverUrl: opts.serverUrl,
    startModel: () =>
      startScriptedOpenAI({ turns: opts.turns, model: opts.modelId, apiKey: opts.apiKey }),
    workflow: (model) => ({
      config: ["harness:", "  default: codex", ...(opts.configLines ?? []), ""].join("\n"),
      vars: { ...opts.vars, OPENAI_BASE_URL: model.url },
      secrets: { OPENAI_API_KEY: opts.apiKey },
    }),
    restore: () => {
      process.env.PATH = savedPath;
    },
  });
}
