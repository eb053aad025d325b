/**
 * The provider's own count of a call's input tokens, asked before the call on the last of a
 * goal's budget: Anthropic's `POST /v1/messages/count_tokens` (free) and OpenAI's
 * `POST /responses/input_tokens`. It counts what bytes cannot (images, documents, the tool
 * prompt), so a call is bounded by what it will bill rather than by one token per byte. Null
 * when the provider (or a gateway in front of it) gives no count: the caller falls back to
 * bytes.
 */
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import type { Provider } from "./call-bound.ts";

/** The fields each count endpoint takes from the call (it refuses the others). */
const COUNTED: Record<Provider, { from: string; to: string; fields: readonly string[] }> = {
  anthropic: {
    from: "/v1/messages",
    to: "/v1/messages/count_tokens",
    fields: ["model", "messages", "system", "tools", "tool_choice", "thinking"],
  },
  openai: {
    from: "/responses",
    to: "/responses/input_tokens",
    fields: [
      "model",
      "input",
      "instructions",
      "tools",
      "tool_choice",
      "parallel_tool_calls",
      "reasoning",
      "text",
      "truncation",
    ],
  },
};

/** Headers the count needs from the call besides the key (the API version, beta flags). */
const PASSED = ["anthropic-version", "anthropic-beta", "openai-beta"];

const Count = z.object({ input_tokens: z.number().int().nonnegative() });

export async function countInput(opts: {
  provider: Provider;
  upstream: string;
  key: string;
  path: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
}): Promise<number | null> {
  const endpoint = COUNTED[opts.provider];
  if (opts.path.split("?")[0] !== endpoint.from) return null;
  let request: unknown;
  try {
    request = JSON.parse(opts.body.toString("utf8"));
  } catch {
    return null;
  }
  if (typeof request !== "object" || request === null || Array.isArray(request)) return null;
  const picked = Object.fromEntries(
    Object.entries(request).filter(([k]) => endpoint.fields.includes(k)),
  );
  const headers = new Headers({ "content-type": "application/json" });
  for (const name of PASSED) {
    const value = opts.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  if (opts.provider === "anthropic") headers.set("x-api-key", opts.key);
  else headers.set("authorization", `Bearer ${opts.key}`);
  try {
    const reply = await fetch(`${opts.upstream}${endpoint.to}`, {
      method: "POST",
      headers,
      body: JSON.stringify(picked),
      signal: AbortSignal.timeout(10_000),
    });
    if (!reply.ok) return null;
    const parsed = Count.safeParse(await reply.json());
    return parsed.success ? parsed.data.input_tokens : null;
  } catch {
    return null;
  }
}
