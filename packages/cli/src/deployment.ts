/**
 * `loopx doctor` without a repository: the deployment — settings valid, the database
 * reachable and migrated, the App's credentials accepted by GitHub, the app answering.
 * PGlite belongs to the app process alone, so its data directory is judged through /healthz.
 */

import { LoopxOctokit, parseSettings, type Settings, SettingsError } from "@loopx/app";
import { openStore } from "@loopx/store";
import { Probot } from "probot";
import { z } from "zod";
import type { Finding } from "./doctor.ts";

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function checkDatabase(settings: Settings): Promise<Finding> {
  if (settings.database.kind === "pglite") {
    return {
      level: "ok",
      message: `the store is embedded PGlite in ${settings.database.dataDir}: only the app opens it (pass --url to check the app's /healthz).`,
    };
  }
  let store: Awaited<ReturnType<typeof openStore>> | null = null;
  try {
    store = await openStore({ databaseUrl: settings.database.url });
    const { known, applied } = await store.migrationStatus();
    if (applied < known) {
      return {
        level: "fail",
        message: `the database is reachable but ${applied} of ${known} migrations are applied: run \`loopx migrate\` (or start the app, which migrates).`,
      };
    }
    return {
      level: "ok",
      message: `the database is reachable and migrated (${applied} migrations).`,
    };
  } catch (error) {
    return {
      level: "fail",
      message: `the database at DATABASE_URL does not answer (${why(error)}): check the URL, the server and the credentials.`,
    };
  } finally {
    await store?.close();
  }
}

async function checkApp(settings: Settings): Promise<Finding> {
  try {
    const probot = new Probot({
      appId: settings.appId,
      privateKey: settings.privateKey,
      baseUrl: settings.github.apiUrl,
      Octokit: LoopxOctokit,
      logLevel: "fatal",
    });
    const { data } = await (await probot.auth()).rest.apps.getAuthenticated();
    const app = z.object({ slug: z.string() }).parse(data);
    return { level: "ok", message: `GitHub accepts the App's credentials (App ${app.slug}).` };
  } catch (error) {
    return {
      level: "fail",
      message: `GitHub refused the App's credentials (${why(error)}): check APP_ID and the private key (App settings → General).`,
    };
  }
}

async function checkHealth(url: string): Promise<Finding> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, "")}/healthz`);
    return res.ok
      ? { level: "ok", message: `the app at ${url} is healthy.` }
      : {
          level: "fail",
          message: `the app at ${url} answers ${res.status} on /healthz: its store does not answer; see its log.`,
        };
  } catch (error) {
    return { level: "fail", message: `the app at ${url} cannot be reached (${why(error)}).` };
  }
}

export async function checkDeployment(
  env: Readonly<Record<string, string | undefined>>,
  appUrl: string | null,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  let settings: Settings | null = null;
  try {
    settings = parseSettings(env);
    findings.push({ level: "ok", message: "the settings (environment variables) are valid." });
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    for (const p of error.problems) findings.push({ level: "fail", message: p });
  }
  if (settings) {
    if (settings.webhookSecret.length < 16) {
      findings.push({
        level: "warn",
        message: "WEBHOOK_SECRET is shorter than 16 characters: use a long random secret.",
      });
    }
    findings.push(await checkDatabase(settings));
    findings.push(await checkApp(settings));
  }
  if (appUrl) findings.push(await checkHealth(appUrl));
  return findings;
}

/** `loopx migrate`: applies the store's migrations to DATABASE_URL (PostgreSQL only). */
export async function migrate(databaseUrl: string): Promise<{ applied: number; known: number }> {
  const store = await openStore({ databaseUrl });
  try {
    await store.migrate();
    return await store.migrationStatus();
  } finally {
    await store.close();
  }
}
