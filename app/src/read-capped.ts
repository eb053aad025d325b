import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A request body of at most `limit` bytes, or null when it is larger: a declared
 * `content-length` over the limit is refused before a byte is read, and a chunked body
 * stops being read the moment it passes the limit (the socket is paused, never drained),
 * so a stranger's huge upload costs at most `limit` bytes of memory.
 */
export function readCapped(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise<Buffer | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limit) {
        stop();
        req.pause();
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * Closes the connection once the answer is out, so the rest of a refused upload is never
 * read: the client has its answer, and the socket goes with the unread data in it.
 */
export function closeWhenAnswered(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("connection", "close");
  res.on("finish", () => setImmediate(() => req.socket.destroy()));
}
