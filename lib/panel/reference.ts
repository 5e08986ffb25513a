/**
 * Turns the API's OpenAPI 3.1 document into what the reference page shows: operations grouped
 * by tag, with their parameters, request fields and responses, and every named schema. Only the
 * subset of OpenAPI the API generates is understood; anything else is shown by its type name.
 */

import { shellVariable } from "./curl.ts";

type Json = Record<string, unknown>;

/** One field of a schema, flattened: nested objects appear as `parent.child`. */
export interface ReferenceField {
  name: string;
  type: string;
  /** The named schema the type refers to, for a link. */
  ref: string | null;
  required: boolean;
  description: string | null;
  constraints: string[];
}

/** A path, query or header parameter. */
interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string | null;
  constraints: string[];
}

/** One response of an operation. */
interface ReferenceResponse {
  status: string;
  description: string;
  schema: string | null;
  contentType: string | null;
}

/** One operation, anchored by its operationId. */
export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  parameters: ReferenceParameter[];
  body: { schema: string | null; required: boolean; fields: ReferenceField[] } | null;
  responses: ReferenceResponse[];
  /** A request body built from the schema's examples, for the curl example. */
  exampleBody: Json | null;
  /** The path with each path parameter as a shell variable (`$PAYMENT_ID`), for the curl. */
  curlPath: string;
  /** The request body's media type when it is not JSON (`text/csv`): the curl sends a file. */
  uploadType: string | null;
}

/** Everything the reference page shows. */
export interface Reference {
  title: string;
  version: string;
  description: string | null;
  server: string | null;
  groups: { tag: string; operations: ReferenceOperation[] }[];
  schemas: { name: string; description: string | null; fields: ReferenceField[] }[];
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const MAX_DEPTH = 3;

function asObject(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value as Json : {};
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function refName(schema: Json): string | null {
  const ref = text(schema.$ref);
  return ref?.startsWith("#/components/schemas/")
    ? ref.slice("#/components/schemas/".length)
    : null;
}

class Resolver {
  constructor(private readonly schemas: Json) {}

  resolve(schema: Json): Json {
    const name = refName(schema);
    return name ? asObject(this.schemas[name]) : schema;
  }

  /** A short type description: `string`, `integer or null`, `array of Offer`, `Offer`. */
  typeOf(schema: Json): { type: string; ref: string | null } {
    const name = refName(schema);
    if (name) return { type: name, ref: name };
    const types = Array.isArray(schema.type) ? schema.type as string[] : [schema.type as string];
    const parts = types.filter(Boolean).map((type) => {
      if (type === "array") {
        const item = this.typeOf(asObject(schema.items));
        return { type: `array of ${item.type}`, ref: item.ref };
      }
      if (type === "object" && schema.additionalProperties && !schema.properties) {
        const values = this.typeOf(asObject(schema.additionalProperties));
        return { type: `map of ${values.type}`, ref: values.ref };
      }
      return { type, ref: null };
    });
    if (parts.length === 0) {
      for (const key of ["anyOf", "oneOf", "allOf"] as const) {
        if (Array.isArray(schema[key])) {
          const options = (schema[key] as Json[]).map((option) => this.typeOf(asObject(option)));
          return {
            type: options.map((option) => option.type).join(" or "),
            ref: options.find((option) => option.ref)?.ref ?? null,
          };
        }
      }
      return { type: "any", ref: null };
    }
    return {
      type: parts.map((part) => part.type).join(" or "),
      ref: parts.find((part) => part.ref)?.ref ?? null,
    };
  }

  constraints(schema: Json): string[] {
    const result: string[] = [];
    if (Array.isArray(schema.enum)) {
      const values = (schema.enum as unknown[]).filter((value) => value !== null);
      result.push(`one of ${values.map((value) => String(value)).join(", ")}`);
    }
    if (typeof schema.minimum === "number") result.push(`≥ ${schema.minimum}`);
    if (typeof schema.maximum === "number") result.push(`≤ ${schema.maximum}`);
    if (typeof schema.minLength === "number" && schema.minLength > 0) {
      result.push(`at least ${schema.minLength} characters`);
    }
    if (typeof schema.maxLength === "number") result.push(`at most ${schema.maxLength} characters`);
    if (typeof schema.minItems === "number" && schema.minItems > 0) {
      result.push(`at least ${schema.minItems} items`);
    }
    if (typeof schema.maxItems === "number") result.push(`at most ${schema.maxItems} items`);
    if (text(schema.format)) result.push(String(schema.format));
    if (text(schema.pattern)) result.push(`pattern ${schema.pattern}`);
    if (schema.default !== undefined) result.push(`default ${JSON.stringify(schema.default)}`);
    return result;
  }

  /** The fields of an object schema, nested inline objects flattened into dotted names. */
  fields(schema: Json, prefix = "", depth = 0): ReferenceField[] {
    const object = this.resolve(schema);
    if (Array.isArray(object.anyOf)) return this.alternativeFields(object.anyOf, prefix, depth);
    const properties = asObject(object.properties);
    const required = new Set(Array.isArray(object.required) ? object.required as string[] : []);
    const result: ReferenceField[] = [];
    for (const [name, raw] of Object.entries(properties)) {
      const property = asObject(raw);
      const { type, ref } = this.typeOf(property);
      result.push({
        name: `${prefix}${name}`,
        type,
        ref,
        required: required.has(name),
        description: text(property.description) ?? text(this.resolve(property).description),
        constraints: this.constraints(property),
      });
      const inline = refName(property) === null &&
        Object.keys(asObject(property.properties)).length > 0;
      if (inline && depth < MAX_DEPTH) {
        result.push(...this.fields(property, `${prefix}${name}.`, depth + 1));
      }
    }
    return result;
  }

  /**
   * The fields of a body that takes one of several shapes: each field once, required only where
   * every shape requires it.
   */
  alternativeFields(shapes: unknown[], prefix: string, depth: number): ReferenceField[] {
    const all = shapes.map((shape) => this.fields(asObject(shape), prefix, depth));
    const byName = new Map<string, ReferenceField>();
    for (const field of all.flat()) {
      const everywhere = all.every((fields) =>
        fields.some((other) => other.name === field.name && other.required)
      );
      if (!byName.has(field.name)) byName.set(field.name, { ...field, required: everywhere });
    }
    return [...byName.values()];
  }

  /** A value for a schema from its examples, for a request a developer can paste. */
  example(schema: Json, depth = 0): unknown {
    const resolved = this.resolve(schema);
    if (resolved.example !== undefined) return resolved.example;
    if (schema.example !== undefined) return schema.example;
    if (depth > MAX_DEPTH) return undefined;
    const properties = asObject(resolved.properties);
    if (Object.keys(properties).length === 0) return undefined;
    const required = new Set(Array.isArray(resolved.required) ? resolved.required as string[] : []);
    const value: Json = {};
    for (const [name, raw] of Object.entries(properties)) {
      if (!required.has(name)) continue;
      const example = this.example(asObject(raw), depth + 1) ?? idVariable(name);
      if (example !== undefined) value[name] = example;
    }
    return value;
  }
}

function jsonSchemaOf(content: unknown): { schema: Json | null; contentType: string | null } {
  const entries = Object.entries(asObject(content));
  if (entries.length === 0) return { schema: null, contentType: null };
  const [contentType, media] = entries[0];
  return { schema: asObject(asObject(media).schema), contentType };
}

/**
 * The shell variable a path parameter's curl reads, by the prefix of the id it takes; the Quick
 * Start's commands set QR_ID and SESSION_ID under the same names.
 */
const ID_VARIABLES: Record<string, string> = {
  qr: "QR_ID",
  cs: "SESSION_ID",
  pay: "PAYMENT_ID",
  re: "REFUND_ID",
  sub: "SUBSCRIPTION_ID",
  evt: "EVENT_ID",
  we: "ENDPOINT_ID",
};

/**
 * A required id field without an example (`qrId`) as the shell variable the curls use for that id
 * (`$QR_ID`), so the example request names a real object instead of leaving the field out.
 */
function idVariable(field: string): string | undefined {
  const variable = field.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  return Object.values(ID_VARIABLES).includes(variable) ? shellVariable(variable) : undefined;
}

function pathVariable(path: string, name: string, example: unknown): string {
  const prefix = typeof example === "string" ? /^([a-z]+)_/.exec(example)?.[1] : undefined;
  if (prefix && ID_VARIABLES[prefix]) return ID_VARIABLES[prefix];
  // No example: the parameter's name, or for a bare `{id}` the resource it follows (events).
  const word = name === "id"
    ? `${path.split("/{id}")[0].split("/").at(-1)!.replace(/s$/, "")}Id`
    : name;
  return word.replace(/([a-z])([A-Z])/g, "$1_$2").replace(/\W/g, "_").toUpperCase();
}

/** Builds the reference from an OpenAPI document. */
export function buildReference(document: unknown): Reference {
  const doc = asObject(document);
  const info = asObject(doc.info);
  const schemas = asObject(asObject(doc.components).schemas);
  const resolver = new Resolver(schemas);
  const groups = new Map<string, ReferenceOperation[]>();
  for (const [path, rawItem] of Object.entries(asObject(doc.paths))) {
    const item = asObject(rawItem);
    for (const method of METHODS) {
      const operation = asObject(item[method]);
      if (Object.keys(operation).length === 0) continue;
      const parameters = (Array.isArray(operation.parameters) ? operation.parameters : [])
        .map((raw) => {
          const parameter = asObject(raw);
          const schema = asObject(parameter.schema);
          return {
            name: String(parameter.name),
            in: String(parameter.in),
            required: parameter.required === true,
            type: resolver.typeOf(schema).type,
            description: text(parameter.description) ?? text(schema.description),
            constraints: resolver.constraints(schema),
          };
        });
      const requestBody = asObject(operation.requestBody);
      const { schema: bodySchema, contentType: bodyType } = jsonSchemaOf(requestBody.content);
      const body = bodySchema && Object.keys(bodySchema).length > 0
        ? {
          schema: refName(bodySchema),
          required: requestBody.required === true,
          fields: resolver.fields(bodySchema),
        }
        : null;
      const example = bodySchema ? resolver.example(bodySchema) : undefined;
      const responses = Object.entries(asObject(operation.responses)).map(([status, raw]) => {
        const response = asObject(raw);
        const { schema, contentType } = jsonSchemaOf(response.content);
        return {
          status,
          description: text(response.description) ?? "",
          schema: schema
            ? refName(schema) ?? (Object.keys(schema).length ? resolver.typeOf(schema).type : null)
            : null,
          contentType,
        };
      });
      const tag = Array.isArray(operation.tags) && operation.tags.length > 0
        ? String(operation.tags[0])
        : "Other";
      const entry: ReferenceOperation = {
        id: text(operation.operationId) ?? `${method}-${path}`,
        method: method.toUpperCase(),
        path,
        summary: text(operation.summary) ?? `${method.toUpperCase()} ${path}`,
        description: text(operation.description),
        parameters,
        body: body && body.fields.length > 0 ? body : null,
        responses,
        exampleBody: example !== null && typeof example === "object" && body?.fields.length
          ? example as Json
          : null,
        curlPath: path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const parameter = (operation.parameters as unknown[] ?? []).map(asObject)
            .find((candidate) => candidate.name === name && candidate.in === "path");
          return shellVariable(pathVariable(path, name, asObject(parameter?.schema).example));
        }),
        uploadType: bodyType && bodyType !== "application/json" ? bodyType : null,
      };
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  return {
    title: text(info.title) ?? "API",
    version: text(info.version) ?? "",
    description: text(info.description),
    server: text(asObject((doc.servers as unknown[] | undefined)?.[0]).url),
    groups: [...groups.entries()].map(([tag, operations]) => ({ tag, operations })),
    schemas: Object.entries(schemas).map(([name, raw]) => ({
      name,
      description: text(asObject(raw).description),
      fields: resolver.fields({ $ref: `#/components/schemas/${name}` }),
    })),
  };
}
