/**
 * The most one model call can cost, known before it is made, for a slice whose ceiling is
 * the last of its goal's budget: there no call may start that could cross it, however the
 * agent shapes it. A reply bills at most its output cap (`max_tokens`, `max_output_tokens`),
 * so the call's cap is lowered to what is left beside its input, at the dearest input rate.
 * The input is the provider's own count (count-input.ts), with a margin, as the provider
 * calls it an estimate; without one it is a token per byte of the body (byte-level
 * tokenizers never make more tokens than bytes), which holds only for text: media, whose
 * tokens follow pixels and pages, are then refused. Whatever the count, a call is refused
 * whose cost its request cannot show: server tools (searches, code execution) and MCP
 * servers that bill what they fetch, a container, several choices per call. So is any POST
 * that is not a generation call.
 */
import type { PriceTable } from "../price-table.ts";

export type Provider = "anthropic" | "openai";

export type CallBound =
  | { ok: true; body: Buffer; worstUsd: number }
  | { ok: false; reason: string };

/** A reply too short to be worth a call: the slice stops instead. */
export const MIN_REPLY_TOKENS = 1_024;
/** The provider's count, taken as at most this much under what the call bills. */
const COUNT_MARGIN = 1.05;
const COUNT_SLACK_TOKENS = 256;

/** Generation endpoints, as the proxy sees them (OpenAI's without its `/v1` mount). */
const GENERATION: Record<Provider, Record<string, readonly string[]>> = {
  anthropic: { "/v1/messages": ["max_tokens"] },
  openai: {
    "/responses": ["max_output_tokens"],
    "/chat/completions": ["max_completion_tokens", "max_tokens"],
  },
};

/** Content types whose tokens are not their bytes, or that the provider fetches itself. */
const UNBOUNDED_CONTENT = new Set([
  "image",
  "document",
  "input_image",
  "input_file",
  "input_audio",
  "image_url",
  "file",
  "container_upload",
]);
/** Keys that pull in content or state the body does not hold. */
const UNBOUNDED_KEYS = ["mcp_servers", "container"];
/** Server-side state: only the provider's count sees what it adds. */
const UNCOUNTED_KEYS = ["previous_response_id", "conversation"];

const perToken = (perMTok: number | undefined) => (perMTok ?? 0) / 1_000_000;

/**
 * Bounds one call against `roomUsd`, what the slice may still spend beside the calls in
 * flight: the body to forward (its output cap lowered to fit) and the call's worst cost, or
 * why it cannot be made.
 */
export function boundCall(opts: {
  provider: Provider;
  path: string;
  body: Buffer;
  /** The model's prices, or null when it has none. */
  pricesOf: (model: string | null) => PriceTable | null;
  /** The provider's count of the call's input tokens, or null when it gave none. */
  inputTokens: number | null;
  roomUsd: number;
}): CallBound {
  const capKeys = GENERATION[opts.provider][opts.path.split("?")[0] ?? ""];
  if (!capKeys) return refused(`${opts.path} is not a generation call LoopX can bound`);
  let request: unknown;
  try {
    request = JSON.parse(opts.body.toString("utf8"));
  } catch {
    return refused("its body is not JSON");
  }
  if (!isRecord(request)) return refused("its body is not a JSON object");
  const model = typeof request.model === "string" ? request.model : null;
  const prices = opts.pricesOf(model);
  if (!prices) return refused(`the model ${model ?? "(none named)"} has no price`);
  const unbounded = unboundedPart(request, opts.provider, opts.inputTokens !== null);
  if (unbounded) return refused(unbounded);
  const inputTokens =
    opts.inputTokens === null
      ? opts.body.length
      : Math.ceil(opts.inputTokens * COUNT_MARGIN) + COUNT_SLACK_TOKENS;
  const inputUsd =
    inputTokens *
    Math.max(
      perToken(prices.inputPerMTok),
      perToken(prices.cachedInputPerMTok),
      perToken(prices.cacheWritePerMTok),
    );
  const outRate = perToken(prices.outputPerMTok);
  const capKey = capKeys.find((k) => typeof request[k] === "number") ?? capKeys[0] ?? "max_tokens";
  const asked = typeof request[capKey] === "number" ? request[capKey] : null;
  if (outRate === 0) {
    return inputUsd <= opts.roomUsd
      ? { ok: true, body: opts.body, worstUsd: inputUsd }
      : refused(`its input alone could cost $${inputUsd.toFixed(4)}`);
  }
  const affordable = Math.floor((opts.roomUsd - inputUsd) / outRate);
  const reply = asked === null ? affordable : Math.min(asked, affordable);
  if (reply < Math.min(asked ?? MIN_REPLY_TOKENS, MIN_REPLY_TOKENS)) {
    const least = inputUsd + Math.min(asked ?? MIN_REPLY_TOKENS, MIN_REPLY_TOKENS) * outRate;
    return refused(
      `even a short reply could cost $${least.toFixed(4)} and $${Math.max(0, opts.roomUsd).toFixed(4)} is left`,
    );
  }
  const worstUsd = inputUsd + reply * outRate;
  if (reply === asked) return { ok: true, body: opts.body, worstUsd };
  const rewritten: Record<string, unknown> = { ...request, [capKey]: reply };
  const thinking = fitThinking(request.thinking, reply);
  if (thinking === null) return refused("its thinking budget does not fit in what is left");
  if (thinking !== undefined) rewritten.thinking = thinking;
  return { ok: true, body: Buffer.from(JSON.stringify(rewritten)), worstUsd };
}

function refused(why: string): CallBound {
  return { ok: false, reason: `on the last of the goal's budget, a call is refused when ${why}` };
}

/**
 * Anthropic's extended thinking spends inside `max_tokens` and must stay below it: a lowered
 * cap lowers the thinking budget too, down to the API's least (1,024), or refuses the call.
 */
function fitThinking(thinking: unknown, reply: number): unknown | null | undefined {
  if (!isRecord(thinking) || typeof thinking.budget_tokens !== "number") return undefined;
  if (thinking.budget_tokens < reply) return undefined;
  const budget = reply - 1;
  return budget < 1_024 ? null : { ...thinking, budget_tokens: budget };
}

/** What makes the call's cost exceed what its body shows, or null. */
function unboundedPart(
  request: Record<string, unknown>,
  provider: Provider,
  counted: boolean,
): string | null {
  for (const key of [...UNBOUNDED_KEYS, ...(counted ? [] : UNCOUNTED_KEYS)]) {
    if (request[key] !== undefined && request[key] !== null) return `it sets \`${key}\``;
  }
  if (typeof request.n === "number" && request.n > 1) return "it asks for several choices";
  const tools = Array.isArray(request.tools) ? request.tools : [];
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    const type = tool.type;
    const own =
      provider === "anthropic"
        ? type === undefined || type === "custom"
        : type === "function" || type === "custom";
    if (!own) return `it offers the server tool \`${String(type)}\``;
  }
  if (counted) return null;
  const media = findMedia([request.system, request.messages, request.input]);
  return media ? `it holds ${media} content the provider did not count` : null;
}

/**
 * Media among the content blocks: walks blocks and the blocks they nest (`content`, a tool
 * result's `output`), never into tool arguments, whose JSON is the agent's own text.
 */
function findMedia(value: unknown, depth = 0): string | null {
  if (depth > 32) return "too deeply nested";
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findMedia(v, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  if (typeof value.type === "string" && UNBOUNDED_CONTENT.has(value.type)) return value.type;
  if (isRecord(value.source) && value.source.type !== "text") return "fetched or encoded";
  for (const key of ["content", "output"]) {
    const found = Array.isArray(value[key]) ? findMedia(value[key], depth + 1) : null;
    if (found) return found;
  }
  return null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
