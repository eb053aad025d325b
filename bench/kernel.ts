// `npm run bench:kernel`: decide() at 10, 100 and 1,000 todos and claim throughput on real
// PostgreSQL — the kernel's rows of `npm run bench`, alone. Figures, not pass criteria.
import { benchPostgres } from "./pg.ts";
import { claimRows, decideRows, guarded } from "./sections.ts";
import { renderText } from "./table.ts";

const rows = await guarded("decide()", decideRows);
const pg = await benchPostgres().catch(() => null);
try {
  rows.push(
    ...(await guarded("tick claims (PostgreSQL)", async () => {
      if (!pg) throw new Error("no PostgreSQL (set BENCH_DATABASE_URL or install postgresql)");
      return claimRows(pg);
    })),
  );
} finally {
  await pg?.stop();
}
console.log(renderText(rows));
