/**
 * Sends bursts of signed webhooks from one worker thread, as GitHub would from elsewhere: the
 * sender's own work (fetch, body handling) then does not run on the App's event loop and
 * count against the App's throughput. One worker serves every burst, so its code is compiled
 * and its connections to the App are open after the first, as a sender's would be. Plain
 * JavaScript evaluated in the worker (no loader).
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
const { parentPort, workerData } = require("node:worker_threads");
const { url, inFlight } = workerData;
let requests = [];
parentPort.on("message", async (m) => {
  if (m.requests) {
    requests = m.requests;
    parentPort.postMessage("loaded");
    return;
  }
  let next = 0;
  const failures = [];
  const lane = async () => {
    while (next < requests.length) {
      const r = requests[next++];
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": r.event || "issues",
            "x-github-delivery": r.id,
            "x-hub-signature-256": r.signature,
          },
          body: r.body,
        });
        await res.arrayBuffer();
        if (!res.ok) failures.push(r.id + " answered " + res.status);
      } catch (error) {
        failures.push(r.id + ": " + String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  parentPort.postMessage({ failures });
});
parentPort.postMessage("ready");
`;

export interface Sender {
  /**
   * Hands the burst to the worker, then calls `started` and lets it send, `inFlight` at a
   * time; resolves when every delivery has been answered.
   */
  burst(requests: SignedDelivery[], started: () => void): Promise<void>;
  close(): Promise<void>;
}

export async function startSender(url: string, inFlight: number): Promise<Sender> {
  const worker = new Worker(SENDER, { eval: true, workerData: { url, inFlight } });
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
