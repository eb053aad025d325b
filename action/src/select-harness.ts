import {
  claudeCodeAdapter,
  codexAdapter,
  type HarnessAdapter,
  ModelPrices,
  OPENAI_PRICES,
  type PriceTable,
  priceFor,
  shellAdapter,
} from "@loopx/harness";
import { z } from "zod";
import { type ActionInput, HarnessName } from "./inputs.ts";

/** What each harness needs from the job's environment when the workflow passes it. */
const DEFAULT_ENV: Record<HarnessName, string[]> = {
  shell: [],
  "claude-code": ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL"],
  codex: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
};

export interface SelectedHarness {
  name: HarnessName;
  /** The adapter; codex is pointed at `provider` (the metering proxy) when one is given. */
  adapter(provider?: { baseUrl: string; envKey: string }): HarnessAdapter;
  /** Only these variables reach the harness (runSlice inherits nothing else but PATH, HOME…). */
  env: Record<string, string>;
  /** Values to mask and redact: every forwarded variable that is not a URL. */
  secrets: string[];
  /** codex's prices by model id (it reports tokens only), for the metering proxy. */
  prices: ModelPrices | null;
}

/**
 * The adapter for the harness the App chose (or the workflow's override), with the environment
 * the workflow handed to this step. Errors say which input to set.
 */
export function selectHarness(
  chosen: string,
  input: ActionInput,
  env: NodeJS.ProcessEnv = process.env,
): SelectedHarness {
  const parsed = HarnessName.safeParse(input.harness ?? chosen);
  if (!parsed.success) {
    throw new Error(
      `The LoopX App chose harness "${chosen}", which this action cannot run: set the \`harness\` input to shell, claude-code or codex`,
    );
  }
  const name = parsed.data;
  const names = [...new Set([...DEFAULT_ENV[name], ...(input["harness-env"] ?? [])])];
  const forwarded: Record<string, string> = {};
  for (const n of names) {
    const value = env[n];
    if (value) forwarded[n] = value;
  }
  const secrets = Object.entries(forwarded)
    .filter(([n]) => !n.endsWith("_URL"))
    .map(([, v]) => v);
  const prices = name === "codex" ? codexPrices(input) : null;
  // Built now, so a missing input fails before anything runs.
  adapterFor(name, input, prices);
  return {
    name,
    adapter: (provider) => adapterFor(name, input, prices, provider),
    env: forwarded,
    secrets,
    prices,
  };
}

function adapterFor(
  name: HarnessName,
  input: ActionInput,
  prices: ModelPrices | null,
  provider?: { baseUrl: string; envKey: string },
): HarnessAdapter {
  const model = input.model ? { model: input.model } : {};
  switch (name) {
    case "shell": {
      const command = input["shell-command"];
      if (!command) {
        throw new Error(
          "The shell harness needs a command: set the `shell-command` input (it reads $LOOPX_BRIEF and writes $LOOPX_RESULT)",
        );
      }
      return shellAdapter({ command });
    }
    case "claude-code":
      return claudeCodeAdapter(model);
    case "codex":
      return codexAdapter({
        prices: estimatePrices(prices ?? OPENAI_PRICES, input.model ?? null),
        ...model,
        ...(provider ? { provider } : {}),
      });
  }
}

/**
 * What codex's own token events are priced at when no proxy meters the slice: the model's
 * prices, or the dearest in the table (an estimate that can only overstate).
 */
function estimatePrices(table: ModelPrices, model: string | null): PriceTable {
  const known = priceFor(table, model);
  if (known) return known;
  const all = Object.values(table);
  const dearest = all.reduce<PriceTable | undefined>(
    (a, b) => (!a || b.outputPerMTok > a.outputPerMTok ? b : a),
    undefined,
  );
  return dearest ?? { inputPerMTok: 0, outputPerMTok: 0 };
}

const EXAMPLE = '{"gpt-5.5":{"inputPerMTok":5,"cachedInputPerMTok":0.5,"outputPerMTok":30}}';

/** The shipped table, with `codex-prices` (the input, or the LOOPX_CODEX_PRICES variable) over it. */
export function codexPrices(input: ActionInput): ModelPrices {
  const raw = input["codex-prices"];
  if (!raw) return OPENAI_PRICES;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(
      `\`codex-prices\` is not JSON: give a table keyed by model id, USD per million tokens, e.g. ${EXAMPLE}`,
      { cause: error },
    );
  }
  const prices = ModelPrices.safeParse(json);
  if (!prices.success) {
    throw new Error(
      `\`codex-prices\` is invalid (it is a table keyed by model id, USD per million tokens, e.g. ${EXAMPLE}):\n${z.prettifyError(prices.error)}`,
    );
  }
  return { ...OPENAI_PRICES, ...prices.data };
}
