import type { IncomingMessage } from "node:http";

/** What an Actions service answers: JSON, raw bytes, or neither (an empty body). */
export interface ServiceReply {
  status: number;
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
}

/** A request's whole body. */
export async function bytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}
