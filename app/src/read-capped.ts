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

/** How long a refused upload's socket stays open after the answer (a "lingering close"). */
const LINGER_MS = 5000;

/**
 * Ends a refused upload once the answer is out: whatever the client still sends is read and
 * thrown away (never kept) for a moment, so it gets to read the answer — closing a socket
 * with unread data in it resets the connection, and the answer is lost with it — and if the
 * body has not ended by then, the connection is closed. A body that does end keeps it.
 */
export function closeWhenAnswered(req: IncomingMessage, res: ServerResponse): void {
  res.on("finish", () => {
    if (req.complete) return;
    req.resume();
    const socket = req.socket;
    const timer = setTimeout(() => {
      if (!req.complete) socket.destroy();
    }, LINGER_MS);
    timer.unref();
    req.once("end", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  });
}
