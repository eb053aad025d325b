import { openStore, type Store } from "@loopx/store";
import { Probot } from "probot";
import { LoopxOctokit } from "./github/loopx-octokit.ts";
import { main, type Running } from "./main.ts";
import { parseSettings, SettingsError } from "./settings.ts";

/**
 * Reads and validates the settings, opens and migrates the store, builds Probot, runs
 * main(), and shuts down in order on SIGTERM/SIGINT: stop taking requests, let workers
 * finish, close the store. Resolves with the exit code once shut down.
 */
export async function runner(env: NodeJS.ProcessEnv): Promise<number> {
  let settings: ReturnType<typeof parseSettings>;
  try {
    settings = parseSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  const probot = new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    baseUrl: settings.github.apiUrl,
    logLevel: settings.logLevel,
    // The inbox and outbox retry durably (and honour retry-after); in-process retries and
    // throttling queues would only hold a worker while the database already has the plan.
    Octokit: LoopxOctokit,
  });
  const log = {
    info: (m: string) => probot.log.info(m),
    warn: (m: string) => probot.log.warn(m),
    error: (m: string) => probot.log.error(m),
  };

  let store: Store;
  try {
    store =
      settings.database.kind === "postgres"
        ? await openStore({ databaseUrl: settings.database.url })
        : await openStore({ dataDir: settings.database.dataDir });
    await store.migrate();
  } catch (error) {
    const where =
      settings.database.kind === "postgres"
        ? "check DATABASE_URL (host, credentials, database name) and that the server is up"
        : `check that LOOPX_DATA_DIR (${settings.database.dataDir}) is writable and not used by another process`;
    log.error(
      `LoopX cannot open its store: ${error instanceof Error ? error.message : String(error)}; ${where}`,
    );
    return 1;
  }

  let running: Running;
  try {
    running = await main({ settings, store, probot, log });
  } catch (error) {
    log.error(
      `LoopX cannot start: ${error instanceof Error ? error.message : String(error)}; if the port is taken, set PORT`,
    );
    await store.close();
    return 1;
  }

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  log.info(`${signal}: shutting down (in-flight deliveries and writes finish first)`);
  try {
    await running.close();
  } finally {
    await store.close();
  }
  return 0;
}
