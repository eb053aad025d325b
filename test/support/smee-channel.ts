/**
 * A smee.io channel on loopback, speaking what probot/smee.io's server does: `GET /<channel>`
 * with `Accept: text/event-stream` opens a stream that starts with an `event: ready`; a `POST
 * /<channel>` (a webhook) goes to every open stream as one unnamed event whose data is the
 * request's headers plus `body` (the parsed JSON), `query` and `timestamp`.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SmeeChannel {
  url: string;
  /** Webhooks posted to the channel so far. */
  received(): number;
  close(): Promise<void>;
}

export async function startSmeeChannel(): Promise<SmeeChannel> {
  const streams = new Set<ServerResponse>();
  let id = 0;
  let received = 0;
  const server = createServer((req, res) => {
    if (req.url !== "/loopx-test-channel") {
      res.writeHead(404).end();
      return;
    }
    if (req.method === "GET" && req.headers.accept === "text/event-stream") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      res.write(`id: ${id++}\nevent: ready\ndata: {}\n\n`);
      streams.add(res);
      res.on("close", () => streams.delete(res));
      return;
    }
    if (req.method === "POST") {
      let raw = "";
      req.on("data", (c: Buffer) => {
        raw += c.toString();
      });
      req.on("end", () => {
        received++;
        const event = { ...req.headers, body: JSON.parse(raw), query: {}, timestamp: Date.now() };
        for (const s of streams) s.write(`id: ${id++}\ndata: ${JSON.stringify(event)}\n\n`);
        res.writeHead(200).end();
      });
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/loopx-test-channel`,
    received: () => received,
    async close() {
      for (const s of streams) s.end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
