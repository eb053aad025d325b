/**
 * INSERTs on the hot paths (webhook → goal, claims, transitions) as plain SQL whose rows
 * travel as ONE json parameter. drizzle's query builder spent ~20% of the App's CPU
 * building these (a Param per value, entity checks per chunk); here the statement text is
 * built once per table and column set, the rows are one JSON.stringify, and the server
 * unpacks them with json_populate_recordset. The same text each time keeps postgres.js's
 * named prepared statement reused.
 */
import { getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

const texts = new Map<string, { head: string; columns: [string, PgColumn][] }>();

/** `INSERT INTO t (cols) SELECT cols FROM json_populate_recordset(NULL::t, ` for these columns. */
function headFor(table: PgTable, props: string[]) {
  const key = `${getTableName(table)}:${props.join(",")}`;
  const cached = texts.get(key);
  if (cached) return cached;
  const all = getTableColumns(table);
  const columns: [string, PgColumn][] = [];
  for (const p of props) {
    const column = all[p];
    if (column) columns.push([p, column]);
  }
  const names = columns.map(([, c]) => `"${c.name}"`).join(", ");
  const table_ = `"${getTableName(table)}"`;
  const head = `INSERT INTO ${table_} (${names}) SELECT ${names} FROM json_populate_recordset(NULL::${table_}, `;
  const made = { head, columns };
  texts.set(key, made);
  return made;
}

/**
 * `INSERT … ${tail}` of `rows` (drizzle's insert shapes: property names, JS values), or
 * null when the rows do not all set the same columns: drizzle gives an unset column its
 * default row by row, which one column list cannot; the caller then uses the builder.
 *
 * Values go through JSON exactly as drizzle would send them: Dates as ISO strings, jsonb
 * values as their JSON (a JSON null is SQL NULL, as drizzle's null is). `tail` is trusted
 * SQL text (ON CONFLICT, RETURNING), never data.
 */
export function insertJson(
  table: PgTable,
  rows: readonly Record<string, unknown>[],
  tail = "",
): SQL | null {
  const first = rows[0];
  if (!first) return null;
  const all = getTableColumns(table);
  const props = Object.keys(all).filter((p) => first[p] !== undefined);
  for (const row of rows) {
    for (const p of Object.keys(row)) if (!(p in all)) return null;
    for (const p of Object.keys(all)) {
      if ((row[p] !== undefined) !== props.includes(p)) return null;
    }
  }
  const { head, columns } = headFor(table, props);
  const json = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [p, column] of columns) out[column.name] = row[p];
    return out;
  });
  // ::text first: each driver then sends the string as it is (no json serializer of its own).
  return sql`${sql.raw(head)}${toJsonText(json)}::text::json) ${sql.raw(tail)}`;
}

/** `ON CONFLICT (keys) DO UPDATE SET col = excluded.col` for every column but `keep`. */
export function upsertTail(table: PgTable, target: string[], keep: string[]): string {
  const key = `upsert:${getTableName(table)}:${target.join(",")}:${keep.join(",")}`;
  const cached = texts.get(key);
  if (cached) return cached.head;
  const all = getTableColumns(table);
  const name = (p: string) => `"${all[p]?.name ?? p}"`;
  const set = Object.keys(all)
    .filter((p) => !keep.includes(p))
    .map((p) => `${name(p)} = excluded.${name(p)}`)
    .join(", ");
  const tail = `ON CONFLICT (${target.map(name).join(", ")}) DO UPDATE SET ${set}`;
  texts.set(key, { head: tail, columns: [] });
  return tail;
}

/** A surrogate written as an escape in JSON text: JSON.stringify escapes only lone ones. */
export const ESCAPED_SURROGATE = /\\ud[89a-f]/i;

/** A UTF-16 surrogate with no partner (JSON.stringify escapes exactly these as `\\udXXX`). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * JSON text PostgreSQL accepts. JavaScript strings may hold a lone surrogate (JSON.parse lets
 * `"\\ud800"` through, so a webhook can carry one); PostgreSQL's json refuses its escape, which
 * would fail the transaction on every retry. Such a surrogate becomes U+FFFD, as it does when
 * a driver encodes a text parameter as UTF-8. The replacer runs only when one is present.
 */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  if (!ESCAPED_SURROGATE.test(text)) return text;
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "string" ? v.replace(LONE_SURROGATE, "\ufffd") : v,
  );
}
