// `npm run bench:kernel`: the kernel's two figures, printed with their targets. Figures, not
// pass criteria: the machines here are shared and noisy, so nothing here fails the build.
import { benchDecide } from "./kernel-decide.ts";
import { benchClaims } from "./store-claims.ts";

interface Row {
  figure: string;
  value: string;
  target: string;
}

const rows: Row[] = [];

const decide = await benchDecide();
rows.push(
  {
    figure: `decide() p50, ${decide.todos} todos / ${decide.gates} gates`,
    value: `${decide.p50Ms.toFixed(3)} ms`,
    target: "—",
  },
  {
    figure: `decide() p99, ${decide.todos} todos / ${decide.gates} gates`,
    value: `${decide.p99Ms.toFixed(3)} ms`,
    target: "< 1 ms",
  },
);

try {
  const claims = await benchClaims();
  rows.push(
    {
      figure: `claims/s, ${claims.claimers} claimers over ${claims.goals} goals (PostgreSQL)`,
      value: claims.claimsPerSec.toFixed(0),
      target: "≥ 300/s",
    },
    { figure: "double claims", value: String(claims.doubleClaims), target: "exactly 0" },
  );
} catch (error) {
  rows.push({
    figure: "store claims (PostgreSQL)",
    value: `not measured: ${error instanceof Error ? error.message : String(error)}`,
    target: "≥ 300/s",
  });
}

const width = Math.max(...rows.map((r) => r.figure.length));
for (const r of rows)
  console.log(`${r.figure.padEnd(width)}  ${r.value.padStart(12)}   target ${r.target}`);
