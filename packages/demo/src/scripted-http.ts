/** HTTP plumbing shared by the scripted model servers (Anthropic Messages, OpenAI Responses). */
import type { IncomingMessage, ServerResponse } from "node:http";

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The text of the user turns in a list of chat items (`messages` or `input`). */
export function userTextOf(items: unknown): string {
  if (!Array.isArray(items)) return "";
  const out: string[] = [];
  for (const item of items) {
    if (!isRecord(item) || item.role !== "user") continue;
    if (typeof item.content === "string") out.push(item.content);
    else if (Array.isArray(item.content)) {
      for (const c of item.content) if (isRecord(c) && typeof c.text === "string") out.push(c.text);
    }
  }
  return out.join("\n");
}

export function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function json(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(data));
}

/** The request body as JSON, or the raw text when it is not JSON (recorded as sent). */
export function parseJson(raw: string): unknown {
  if (raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
