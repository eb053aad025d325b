/**
 * The tick harness on its own real-PostgreSQL database, with the repository's tick workflow
 * running the real `claude` against a scripted Anthropic server whose first turn writes the
 * result `resultFor(prompt)` returns. What the planning scenarios share.
 */

import {
  isRecord,
  type ScriptedAnthropic,
  startScriptedAnthropic,
  text,
  userTextOf,
  writeFile,
} from "@loopx/sandbox/models";
import { resultPathIn } from "../../packages/harness/test/fixtures.ts";
import { type ModelTicks, startModelTicks } from "./model-ticks.ts";

export type ClaudeTicks = ModelTicks<ScriptedAnthropic>;

export function startClaudeTicks(opts: {
  serverUrl: string;
  /** The result the slice writes, chosen from the prompt `claude` sent. */
  resultFor: (prompt: string) => unknown;
  /** The second turn's closing words. */
  closing: string;
  /** `.github/loopx.yml` lines after the harness block. */
  configLines?: string[];
  apiKey: string;
}): Promise<ClaudeTicks> {
  return startModelTicks({
    serverUrl: opts.serverUrl,
    startModel: () =>
      startScriptedAnthropic({
        turns: [
          (req) => ({
            content: [
              writeFile(resultPathIn(req.prompt), JSON.stringify(opts.resultFor(req.prompt))),
            ],
          }),
          { content: [text(opts.closing)] },
        ],
      }),
    workflow: (model) => ({
      config: [
        "harness:",
        "  default: claude-code",
        "  allowedTools: [Write]",
        ...(opts.configLines ?? []),
        "",
      ].join("\n"),
      vars: { ANTHROPIC_BASE_URL: model.url },
      secrets: { ANTHROPIC_API_KEY: opts.apiKey },
    }),
  });
}

/** The prompts the real `claude` sent, one per conversation, from request index `from` on. */
export function promptsFrom(model: ScriptedAnthropic, from: number): string[] {
  return model.requests
    .slice(from)
    .filter((r) => isRecord(r.body) && Array.isArray(r.body.tools) && r.body.tools.length > 0)
    .map((r) => (isRecord(r.body) ? userTextOf(r.body.messages) : ""))
    .filter((p, i, all) => all.indexOf(p) === i);
}
