import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { parseSettings } from "../../app/src/settings.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const TEST_PEM = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();

const Compose = z.object({
  services: z.object({
    loopx: z.object({
      build: z.literal("."),
      env_file: z.string(),
      environment: z.object({ DATABASE_URL: z.string() }),
      depends_on: z.object({ postgres: z.object({ condition: z.literal("service_healthy") }) }),
    }),
    postgres: z.object({
      image: z.string().regex(/^postgres:\d+$/),
      environment: z.object({
        POSTGRES_USER: z.string(),
        POSTGRES_PASSWORD: z.string(),
        POSTGRES_DB: z.string(),
      }),
      volumes: z.array(z.string()).min(1),
      healthcheck: z.object({ test: z.array(z.string()) }),
    }),
  }),
  volumes: z.record(z.string(), z.unknown()),
});

/** Compose's `${NAME:-default}` with nothing set, as `docker compose config` resolves it. */
const defaults = (value: string) => value.replace(/\$\{\w+:-([^}]*)\}/g, "$1");

/** Scenario: compose.yaml wires the App to its PostgreSQL the way the App reads it. */
describe("install: compose.yaml", () => {
  it("points the App's DATABASE_URL at the postgres service's user, password and database, and waits for it", () => {
    const compose = Compose.parse(parse(readFileSync(resolve(ROOT, "compose.yaml"), "utf8")));
    const pg = compose.services.postgres.environment;
    const url = new URL(defaults(compose.services.loopx.environment.DATABASE_URL));
    expect(url.hostname).toBe("postgres");
    expect(decodeURIComponent(url.username)).toBe(defaults(pg.POSTGRES_USER));
    expect(decodeURIComponent(url.password)).toBe(defaults(pg.POSTGRES_PASSWORD));
    expect(url.pathname).toBe(`/${defaults(pg.POSTGRES_DB)}`);
    // The database's data is a named volume, declared; the App's settings parse with this URL.
    const [named] = compose.services.postgres.volumes[0]?.split(":") ?? [];
    expect(Object.keys(compose.volumes)).toContain(named);
    expect(compose.services.postgres.healthcheck.test.join(" ")).toContain("pg_isready");
    const settings = parseSettings(
      {
        APP_ID: "1",
        PRIVATE_KEY_PATH: "/k.pem",
        WEBHOOK_SECRET: "s",
        LOOPX_PUBLIC_URL: "https://loopx.example.com",
        DATABASE_URL: url.toString(),
      },
      { readFile: () => TEST_PEM },
    );
    expect(settings.database).toEqual({ kind: "postgres", url: url.toString() });
  });
});
