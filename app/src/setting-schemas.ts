/** The shapes of LoopX's environment variables, each refusal naming the variable and what to set. */
import { z } from "zod";

export const positiveInt = (name: string, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be ${what} (a whole number)`)
    .transform(Number)
    .pipe(z.number().int().positive(`${name} must be ${what} (greater than 0)`));

export const httpUrl = (name: string) =>
  z.url({
    protocol: /^https?$/,
    error: `${name} must be an http(s) URL, e.g. https://api.github.com or https://ghes.example.com/api/v3`,
  });

export const boolish = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => /^(true|1|yes)$/.test(v));

/** `"50"` → every installation; `"50,123=200"` → 50 by default, 200 for installation 123. */
export const SpendCeiling = z.string().transform((raw, ctx) => {
  let fallback: number | null = null;
  const byInstallation: Record<string, number> = {};
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(?:(\d+)=)?(\d+(?:\.\d+)?)$/.exec(part);
    if (!m?.[2]) {
      ctx.addIssue({
        code: "custom",
        message: `LOOPX_SPEND_CEILING_USD: "${part}" is neither a USD amount (50) nor installation=amount (12345=200)`,
      });
      return z.NEVER;
    }
    if (m[1]) byInstallation[m[1]] = Number(m[2]);
    else fallback = Number(m[2]);
  }
  return { fallback, byInstallation };
});

export const KillSwitch = z
  .string()
  .transform((raw) =>
    raw
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(
          /^\d+$/,
          "LOOPX_KILL_SWITCH must list numeric installation ids, comma-separated (e.g. 12345,67890)",
        )
        .transform(Number),
    ),
  );
