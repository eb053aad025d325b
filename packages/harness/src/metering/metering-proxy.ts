import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { usdFor } from "../price-table.ts";
import { anthropicPrices } from "./anthropic-prices.ts";
import { boundCall } from "./call-bound.ts";
import { countInput } from "./count-input.ts";
import { type ModelPrices, priceFor } from "./openai-prices.ts";
import { UsageReader } from "./provider-usage.ts";

export interface MeteringOptions {
  provider: "anthropic" | "openai";
  /** The provider's base URL: Anthropic without `/v1`, OpenAI with it (as their SDKs take them). */
  upstream: string;
  /** The model key. It stays in this process: the harness only ever gets `capability`. */
  key: string;
  /**
   * The slice's USD ceiling (its tick cap, lowered to what the goal's budget has left): once
   * spent, every further request is refused.
   */
  capUsd: number;
  /** The slice's token cap, likewise. */
  capTokens?: number;
  /**
   * The ceiling is the last of the goal's budget, not its tick cap: no call may start that
   * could cross it (call-bound.ts), so the slice stops short of it instead of one reply past.
   * Under a tick cap the reply in flight when the cap is reached is still counted.
   */
  hard?: boolean;
  /**
   * Prices for OpenAI models by model id (the shipped table and `codex-prices`); Anthropic's
   * come from its list. A reply from a model without a price is charged the whole cap.
   */
  prices?: ModelPrices;
}

export interface MeteringReading {
  usd: number;
  tokens: number;
  /** Replies whose usage was counted. */
  replies: number;
  /** Requests refused: past the cap, or without this slice's capability. */
  refused: number;
  /** Of those, the ones refused because the cap was spent: the slice was stopped by its budget. */
  overCap: number;
  /** Models that replied without a price in the table (each charged the cap). */
  unpriced: string[];
}

export interface MeteringProxy {
  /** What the harness uses as its provider's base URL (ANTHROPIC_BASE_URL, codex's base_url). */
  url: string;
  /** What the harness uses as its key: good for this proxy and this slice only. */
  capability: string;
  reading(): MeteringReading;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
  "host",
  "content-length",
  "accept-encoding",
  "x-api-key",
  "authorization",
]);

/**
 * A loopback proxy between a jailed harness and its model provider. It alone holds the
 * model key, so a direct call from the jail has none; it counts `usage` from the provider's
 * replies (never from the harness's own output, which the agent can write to); and it
 * refuses requests once the slice's cap is spent. Those counts are the slice's cost.
 */
export async function startMeteringProxy(options: MeteringOptions): Promise<MeteringProxy> {
  if (options.provider === "openai" && !options.prices) {
    throw new Error(
      "metering an OpenAI provider needs its price table by model id (OPENAI_PRICES, or the codex-prices input)",
    );
  }
  const capability = `loopx-slice-${randomBytes(24).toString("hex")}`;
  const mount = options.provider === "openai" ? "/v1" : "";
  const upstream = options.upstream.replace(/\/+$/, "");
  const reading: MeteringReading = {
    usd: 0,
    tokens: 0,
    replies: 0,
    refused: 0,
    overCap: 0,
    unpriced: [],
  };
  /** The worst cost of the calls in flight, on a hard ceiling. */
  let reserved = 0;
  const pricesOf = (model: string | null) =>
    options.provider === "anthropic"
      ? anthropicPrices(model)
      : priceFor(options.prices ?? {}, model);
  const spent = () =>
    reading.usd >= options.capUsd ||
    (options.capTokens !== undefined && reading.tokens >= options.capTokens);
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void forward(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 502, `LoopX metering proxy: ${String(error)}`);
      else res.destroy();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  const refuse = (res: ServerResponse, status: number, message: string) => {
    reading.refused += 1;
    const body =
      options.provider === "anthropic"
        ? {
            type: "error",
            error: {
              type: status === 401 ? "authentication_error" : "invalid_request_error",
              message,
            },
          }
        : {
            error: {
              message,
              type: status === 401 ? "invalid_request_error" : "insufficient_quota",
              code: status === 401 ? "invalid_api_key" : "insufficient_quota",
            },
          };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const given =
      options.provider === "anthropic"
        ? req.headers["x-api-key"]
        : req.headers.authorization?.replace(/^Bearer\s+/i, "");
    if (given !== capability) {
      refuse(res, 401, "LoopX metering proxy: this is not the slice's key");
      return;
    }
    const path = req.url ?? "/";
    if (!path.startsWith(mount)) {
      refuse(res, 404, `LoopX metering proxy: no route ${path}`);
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD" && spent()) {
      reading.overCap += 1;
      refuse(
        res,
        options.provider === "anthropic" ? 400 : 429,
        `LoopX: this slice's budget ($${options.capUsd}${options.capTokens !== undefined ? `, ${options.capTokens} tokens` : ""}) is spent; the slice must stop`,
      );
      return;
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    let body = hasBody ? await readAll(req) : null;
    let reserving = 0;
    if (options.hard && body !== null) {
      const callPath = path.slice(mount.length);
      const inputTokens = await countInput({
        provider: options.provider,
        upstream,
        key: options.key,
        path: callPath,
        body,
        headers: req.headers,
      });
      const bound = boundCall({
        provider: options.provider,
        path: callPath,
        body,
        pricesOf,
        inputTokens,
        roomUsd: options.capUsd - reading.usd - reserved,
      });
      if (!bound.ok) {
        reading.overCap += 1;
        refuse(
          res,
          options.provider === "anthropic" ? 400 : 429,
          `LoopX: ${bound.reason}; the slice must stop`,
        );
        return;
      }
      body = bound.body;
      reserving = bound.worstUsd;
    }
    reserved += reserving;
    try {
      await relay(req, res, path, body);
    } finally {
      reserved -= reserving;
    }
  }

  async function relay(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    body: Buffer | null,
  ): Promise<void> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    if (options.provider === "anthropic") headers.set("x-api-key", options.key);
    else headers.set("authorization", `Bearer ${options.key}`);
    headers.set("accept-encoding", "identity");
    const reply = await fetch(`${upstream}${path.slice(mount.length)}`, {
      method: req.method ?? "GET",
      headers,
      ...(body !== null ? { body } : {}),
    });
    const out: Record<string, string> = {};
    reply.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== "content-encoding") out[name] = value;
    });
    res.writeHead(reply.status, out);
    const streaming = (reply.headers.get("content-type") ?? "").includes("text/event-stream");
    const usage = new UsageReader(options.provider, streaming);
    if (reply.body) {
      for await (const chunk of reply.body) {
        const buf = Buffer.from(chunk);
        usage.push(buf);
        if (!res.write(buf)) await new Promise((r) => res.once("drain", r));
      }
    }
    res.end();
    // A reply cut short still counts what it reported.
    const used = usage.end();
    const tokens = used.input + used.output + used.cachedInput + used.cacheWrite;
    if (tokens === 0) return;
    const prices =
      options.provider === "anthropic"
        ? anthropicPrices(used.model)
        : priceFor(options.prices ?? {}, used.model);
    reading.tokens += tokens;
    reading.replies += 1;
    if (prices) {
      reading.usd += usdFor(prices, used);
      return;
    }
    // What an unpriced model spent cannot be known: the slice is charged all it may spend.
    reading.usd = Math.max(reading.usd, options.capUsd);
    const model = used.model ?? "(a reply that named no model)";
    if (!reading.unpriced.includes(model)) reading.unpriced.push(model);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the metering proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}${mount}`,
    capability,
    reading: () => ({ ...reading, unpriced: [...reading.unpriced] }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}
