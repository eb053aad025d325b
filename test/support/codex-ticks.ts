/**
 * The tick harness on its own real-PostgreSQL database, with the repository's tick workflow
 * running the real `codex` against a scripted Responses server: its key is a repository
 * secret and its URL the `OPENAI_BASE_URL` variable, as a user would set them. What the codex
 * scenarios share; `path` is the PATH the runner's jobs get (with or without bubblewrap).
 */

import {
  type OpenAIScriptStep,
  type ScriptedOpenAI,
  startScriptedOpenAI,
} from "@loopx/sandbox/models";
import { openStore, type Store } from "@loopx/store";
import { freshDatabase } from "./databases.ts";
import { startTickHarness, type TickHarness } from "./tick-api-harness.ts";
import { useTickWorkflow } from "./tick-workflow-runs.ts";

export interface CodexTicks {
  h: TickHarness;
  model: ScriptedOpenAI;
  close(): Promise<void>;
}

export async function startCodexTicks(opts: {
  serverUrl: string;
  turns: OpenAIScriptStep[];
  /** The model id the scripted server answers as. */
  modelId: string;
  apiKey: string;
  /** `.github/loopx.yml` lines after the harness block. */
  configLines?: string[];
  /** The jobs' PATH; the process's PATH is restored on close. */
  path: string;
}): Promise<CodexTicks> {
  const db = await freshDatabase(opts.serverUrl);
  const savedPath = process.env.PATH;
  let store: Store | undefined;
  let model: ScriptedOpenAI | undefined;
  let h: TickHarness | undefined;
  const close = async () => {
    await h?.close();
    await model?.close();
    await store?.close();
    await db.drop();
    process.env.PATH = savedPath;
  };
  try {
    store = await openStore({ databaseUrl: db.url });
    model = await startScriptedOpenAI({
      turns: opts.turns,
      model: opts.modelId,
      apiKey: opts.apiKey,
    });
    h = await startTickHarness({ store });
    // The sandbox's runner hands its own PATH to every job, as a hosted runner's image does.
    process.env.PATH = opts.path;
    useTickWorkflow(h, {
      config: ["harness:", "  default: codex", ...(opts.configLines ?? []), ""].join("\n"),
      vars: { OPENAI_BASE_URL: model.url },
      secrets: { OPENAI_API_KEY: opts.apiKey },
    });
    return { h, model, close };
  } catch (error) {
    await close();
    throw error;
  }
}
