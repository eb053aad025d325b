import type { Field, Operation, Value } from "./parse.ts";

/** One GraphQL error as GitHub words it (`type` for execution errors, `extensions` for validation). */
export interface GraphqlError {
  message: string;
  locations: { line: number; column: number }[];
  path?: (string | number)[];
  type?: string;
  extensions?: Record<string, unknown>;
}

/** Thrown by a resolver: becomes an error at the field's path, and the field is null. */
export class FieldError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

type Args = Record<string, unknown>;

/** A field of an object type: scalar (`type: null`) or an object/list of one. */
export interface FieldDef {
  type: string | null;
  list?: boolean;
  args?: Record<string, { required?: boolean }>;
  resolve(parent: unknown, args: Args): unknown;
}

export type Schema = Record<string, Record<string, FieldDef>>;

function literal(v: Value, vars: Args): unknown {
  switch (v.kind) {
    case "var":
      return vars[v.name];
    case "object":
      return Object.fromEntries(Object.entries(v.fields).map(([k, f]) => [k, literal(f, vars)]));
    default:
      return v.value;
  }
}

const where = (f: Field) => [{ line: f.line, column: f.column }];

/** Static checks GitHub runs before executing: fields, arguments, selections, variables. */
function validate(
  schema: Schema,
  type: string,
  fields: Field[],
  path: string[],
  used: Set<string>,
  errors: GraphqlError[],
): void {
  for (const f of fields) {
    const def = schema[type]?.[f.name];
    const here = [...path, f.alias ?? f.name];
    if (!def) {
      errors.push({
        path: here,
        extensions: { code: "undefinedField", typeName: type, fieldName: f.name },
        locations: where(f),
        message: `Field '${f.name}' doesn't exist on type '${type}'`,
      });
      continue;
    }
    for (const [arg, v] of Object.entries(f.args)) {
      if (!def.args?.[arg]) {
        errors.push({
          path: [...here, arg],
          extensions: {
            code: "argumentNotAccepted",
            name: f.name,
            typeName: "Field",
            argumentName: arg,
          },
          locations: where(f),
          message: `Field '${f.name}' doesn't accept argument '${arg}'`,
        });
      }
      const collect = (x: Value) => {
        if (x.kind === "var") used.add(x.name);
        if (x.kind === "object") for (const y of Object.values(x.fields)) collect(y);
      };
      collect(v);
    }
    for (const [arg, spec] of Object.entries(def.args ?? {})) {
      if (spec.required && !(arg in f.args)) {
        errors.push({
          path: here,
          extensions: {
            code: "missingRequiredArguments",
            className: "Field",
            name: f.name,
            arguments: arg,
          },
          locations: where(f),
          message: `Field '${f.name}' is missing required arguments: ${arg}`,
        });
      }
    }
    if (def.type === null && f.selections) {
      errors.push({
        path: here,
        extensions: {
          code: "selectionMismatch",
          nodeName: `field '${f.name}'`,
          typeName: "scalar",
        },
        locations: where(f),
        message: `Selections can't be made on scalars (field '${f.name}' returns a scalar but has selections [${f.selections.map((s) => s.name).join(", ")}])`,
      });
    } else if (def.type !== null && !f.selections) {
      errors.push({
        path: here,
        extensions: {
          code: "selectionMismatch",
          nodeName: `field '${f.name}'`,
          typeName: def.type,
        },
        locations: where(f),
        message: `Field must have selections (field '${f.name}' returns ${def.type} but has no selections. Did you mean '${f.name} { ... }'?)`,
      });
    } else if (def.type !== null && f.selections) {
      validate(schema, def.type, f.selections, here, used, errors);
    }
  }
}

/**
 * Runs one operation against a schema of resolvers. Validation errors answer with no data
 * (as GitHub does); resolver errors null their field and are listed beside the data.
 */
export function execute(
  schema: Schema,
  op: Operation,
  vars: Args,
): { data?: unknown; errors?: GraphqlError[] } {
  const root = op.kind === "mutation" ? "Mutation" : "Query";
  const errors: GraphqlError[] = [];
  const used = new Set<string>();
  validate(schema, root, op.selections, [op.kind], used, errors);
  for (const name of used) {
    if (!(name in op.variables)) {
      errors.push({
        path: [op.kind],
        extensions: { code: "variableNotDefined", variableName: name },
        locations: [{ line: 1, column: 1 }],
        message: `Variable $${name} is used by anonymous ${op.kind} but not declared`,
      });
    }
  }
  for (const [name, type] of Object.entries(op.variables)) {
    if (type.endsWith("!") && (vars[name] === undefined || vars[name] === null)) {
      errors.push({
        extensions: {
          value: null,
          problems: [{ path: [], explanation: "Expected value to not be null" }],
        },
        locations: [{ line: 1, column: 1 }],
        message: `Variable $${name} of type ${type} was provided invalid value`,
      });
    }
  }
  if (errors.length > 0) return { errors };

  const resolveFields = (
    type: string,
    parent: unknown,
    fields: Field[],
    path: (string | number)[],
  ) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const def = schema[type]?.[f.name];
      const key = f.alias ?? f.name;
      if (!def) continue;
      const args = Object.fromEntries(
        Object.entries(f.args).map(([k, v]) => [k, literal(v, vars)]),
      );
      let value: unknown;
      try {
        value = def.resolve(parent, args);
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        errors.push({
          type: error.type,
          path: [...path, key],
          locations: where(f),
          message: error.message,
        });
        out[key] = null;
        continue;
      }
      const sub = f.selections;
      const objectType = def.type;
      if (objectType === null || sub === null || value === null || value === undefined) {
        out[key] = value ?? null;
      } else if (def.list && Array.isArray(value)) {
        out[key] = value.map((v, i) => resolveFields(objectType, v, sub, [...path, key, i]));
      } else {
        out[key] = resolveFields(objectType, value, sub, [...path, key]);
      }
    }
    return out;
  };
  const data = resolveFields(root, null, op.selections, []);
  return errors.length > 0 ? { data, errors } : { data };
}
