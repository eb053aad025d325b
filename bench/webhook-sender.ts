/**
 * Sends bursts of signed webhooks from one worker thread, as GitHub would from elsewhere: the
 * sender's own work then does not run on the App's event loop. It speaks HTTP/1.1 over plain
 * sockets, each request's bytes built before the burst starts: the machine's two cores are
 * shared by the App, PostgreSQL and this sender, and `fetch` spent about 450 µs of CPU per
 * request, more than a passing check run costs the App; what the bench measures is the App.
 * Its connections are opened before a burst's clock starts, as a busy sender's are already
 * open, and closed after it, so none is cut by the App's keep-alive timeout mid-request.
 * Plain JavaScript evaluated in the worker (no loader).
 */
import { Worker } from "node:worker_threads";

export interface SignedDelivery {
  id: string;
  body: string;
  signature: string;
  /** The `X-GitHub-Event` header; `issues` when not given. */
  event?: string;
}

const SENDER = `
const net = require("node:net");
const { parentPort, workerData } = require("node:worker_threads");
const { host, port, path, inFlight } = workerData;
const HEAD_END = Buffer.from("\\r\\n\\r\\n");

function bytesOf(r) {
  const body = Buffer.from(r.body);
  const head =
    "POST " + path + " HTTP/1.1\\r\\nhost: " + host + ":" + port +
    "\\r\\ncontent-type: application/json\\r\\nx-github-event: " + (r.event || "issues") +
    "\\r\\nx-github-delivery: " + r.id + "\\r\\nx-hub-signature-256: " + r.signature +
    "\\r\\ncontent-length: " + body.length + "\\r\\n\\r\\n";
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** One keep-alive connection, one request at a time; answers are read by Content-Length. */
function open() {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let buffered = Buffer.alloc(0);
    let waiting = null;
    const fail = (error) => {
      const w = waiting;
      waiting = null;
      if (w) w.reject(error);
    };
    socket.setNoDelay(true);
    socket.once("connect", () => resolve(lane));
    socket.on("error", (error) => (waiting ? fail(error) : reject(error)));
    socket.on("close", () => fail(new Error("the App closed the connection mid-request")));
    socket.on("data", (chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(HEAD_END);
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString("latin1");
      const length = /\\r\\ncontent-length:\\s*(\\d+)/i.exec(head);
      if (!length) return fail(new Error("an answer without Content-Length: " + head));
      const total = end + 4 + Number(length[1]);
      if (buffered.length < total) return;
      buffered = buffered.subarray(total);
      const w = waiting;
      waiting = null;
      if (w) w.resolve(Number(head.slice(9, 12)));
    });
    const lane = {
      send: (bytes) =>
        new Promise((resolve, reject) => {
          waiting = { resolve, reject };
          socket.write(bytes);
        }),
      close: () => socket.end(),
    };
  });
}

let requests = [];
let lanes = [];
parentPort.on("message", async (m) => {
  if (m.requests) {
    requests = m.requests.map((r) => ({ id: r.id, bytes: bytesOf(r) }));
    lanes = await Promise.all(Array.from({ length: inFlight }, open));
    parentPort.postMessage("loaded");
    return;
  }
  let next = 0;
  const failures = [];
  const run = async (lane) => {
    while (next < requests.length) {
      const r = requests[next++];
      try {
        const status = await lane.send(r.bytes);
        if (status < 200 || status >= 300) failures.push(r.id + " answered " + status);
      } catch (error) {
        failures.push(r.id + ": " + String(error));
        return;
      }
    }
  };
  await Promise.all(lanes.map(run));
  for (const lane of lanes) lane.close();
  lanes = [];
  if (next < requests.length) failures.push((requests.length - next) + " not sent");
  parentPort.postMessage({ failures });
});
parentPort.postMessage("ready");
`;

export interface Sender {
  /**
   * Hands the burst to the worker (which builds its requests and opens `inFlight`
   * connections), then calls `started` and lets it send, one request per connection at a
   * time; resolves when every delivery has been answered.
   */
  burst(requests: SignedDelivery[], started: () => void): Promise<void>;
  close(): Promise<void>;
}

export async function startSender(url: string, inFlight: number): Promise<Sender> {
  const { hostname: host, port, pathname: path } = new URL(url);
  const worker = new Worker(SENDER, { eval: true, workerData: { host, port, path, inFlight } });
  const reply = () =>
    new Promise<unknown>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      worker.once("error", fail);
      worker.once("message", (m) => {
        worker.off("error", fail);
        resolve(m);
      });
    });
  try {
    await reply();
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    async burst(requests, started) {
      const loaded = reply();
      worker.postMessage({ requests });
      await loaded;
      const done = reply();
      started();
      worker.postMessage("go");
      const answer = await done;
      const failures =
        answer &&
        typeof answer === "object" &&
        "failures" in answer &&
        Array.isArray(answer.failures)
          ? answer.failures
          : ["the sender answered nothing"];
      if (failures.length > 0) {
        throw new Error(`webhook burst: ${failures.slice(0, 3).join("; ")}`);
      }
    },
    async close() {
      await worker.terminate();
    },
  };
}
