import { z } from "zod";

/** What one model reply used, as the provider reported it. */
export interface ReplyUsage {
  model: string | null;
  input: number;
  output: number;
  cachedInput: number;
  cacheWrite: number;
}

const count = z.number().int().nonnegative().catch(0).default(0);

/** Anthropic Messages `usage` (non-streamed replies, `message_start`, `message_delta`). */
const AnthropicUsage = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: z.number().int().nonnegative().nullish(),
  cache_read_input_tokens: z.number().int().nonnegative().nullish(),
});

/** OpenAI Responses `usage` (and Chat Completions' older names). */
const OpenAIUsage = z.object({
  input_tokens: count,
  output_tokens: count,
  prompt_tokens: count,
  completion_tokens: count,
  input_tokens_details: z.object({ cached_tokens: count }).partial().nullish(),
});

const Shaped = z.object({ model: z.string().optional(), usage: z.unknown().optional() });

/**
 * Reads the usage out of a provider's reply as it streams: SSE events (`data:` lines) or one
 * JSON body. Unknown events are ignored; the last figure for each field wins, as the
 * providers repeat cumulative counts (Anthropic's `message_delta`, OpenAI's `completed`).
 */
export class UsageReader {
  private readonly usage: ReplyUsage = {
    model: null,
    input: 0,
    output: 0,
    cachedInput: 0,
    cacheWrite: 0,
  };
  private pending = "";
  private body = "";
  private bodyBytes = 0;

  constructor(
    private readonly provider: "anthropic" | "openai",
    private readonly streaming: boolean,
    private readonly maxBodyBytes = 8 * 1024 * 1024,
  ) {}

  push(chunk: Buffer): void {
    const text = chunk.toString("utf8");
    if (!this.streaming) {
      this.bodyBytes += chunk.length;
      if (this.bodyBytes <= this.maxBodyBytes) this.body += text;
      return;
    }
    this.pending += text;
    let nl = this.pending.indexOf("\n");
    while (nl >= 0) {
      const line = this.pending.slice(0, nl).replace(/\r$/, "");
      this.pending = this.pending.slice(nl + 1);
      if (line.startsWith("data:")) this.event(line.slice(5).trim());
      nl = this.pending.indexOf("\n");
    }
  }

  /** The reply's usage once it ended (what was seen, if it was cut short). */
  end(): ReplyUsage {
    if (this.streaming && this.pending.startsWith("data:"))
      this.event(this.pending.slice(5).trim());
    if (!this.streaming) this.event(this.body);
    return { ...this.usage };
  }

  private event(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    // Anthropic: message_start { message: {model, usage} }, message_delta { usage }, or a reply.
    // OpenAI: response.completed { response: {model, usage} }, or a reply.
    const record = z.record(z.string(), z.unknown()).safeParse(parsed);
    if (!record.success) return;
    const holder = record.data.message ?? record.data.response ?? record.data;
    const shaped = Shaped.safeParse(holder);
    if (!shaped.success) return;
    if (shaped.data.model) this.usage.model = shaped.data.model;
    const usage = shaped.data.usage ?? record.data.usage;
    if (usage === undefined || usage === null) return;
    if (this.provider === "anthropic") this.anthropic(usage);
    else this.openai(usage);
  }

  private anthropic(raw: unknown): void {
    const u = AnthropicUsage.safeParse(raw);
    if (!u.success) return;
    // A field missing from an event parses as 0, which the running maximum ignores.
    this.usage.input = Math.max(this.usage.input, u.data.input_tokens);
    this.usage.output = Math.max(this.usage.output, u.data.output_tokens);
    this.usage.cacheWrite = Math.max(
      this.usage.cacheWrite,
      u.data.cache_creation_input_tokens ?? 0,
    );
    this.usage.cachedInput = Math.max(this.usage.cachedInput, u.data.cache_read_input_tokens ?? 0);
  }

  private openai(raw: unknown): void {
    const u = OpenAIUsage.safeParse(raw);
    if (!u.success) return;
    const cached = u.data.input_tokens_details?.cached_tokens ?? 0;
    const input = Math.max(u.data.input_tokens, u.data.prompt_tokens);
    // OpenAI counts cached tokens inside input_tokens; they are priced apart.
    this.usage.cachedInput = Math.max(this.usage.cachedInput, cached);
    this.usage.input = Math.max(this.usage.input, input - cached);
    this.usage.output = Math.max(this.usage.output, u.data.output_tokens, u.data.completion_tokens);
  }
}
