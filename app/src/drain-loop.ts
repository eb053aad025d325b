import type { Logger } from "./deps.ts";

/**
 * A single-flight loop over a queue in the database: `kick()` starts a pass unless one is
 * running (then it runs again once that ends); `idle()` resolves when nothing is in flight.
 * The queue itself is the source of truth, so a lost kick only delays work until the next.
 */
export interface DrainLoop {
  kick(): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function createDrainLoop(pass: () => Promise<number>, log: Logger): DrainLoop {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function drain(): Promise<void> {
    // A pass that did work may have made more due (e.g. a processed delivery queued writes).
    while (!stopped && (await pass()) > 0) {}
  }

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => {
        log.error(`drain pass failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      while (running) await running;
    },
  };
}
