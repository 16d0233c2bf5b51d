import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * The API document an app publishes at `/api/docs/json`, and a check that an answer is what it
 * describes for the call's operation and status (the operation's `default` answer for a refusal).
 */
interface Operation {
  responses: Record<string, { content?: { 'application/json'?: { schema: object } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

export async function apiDocument(app: FastifyInstance) {
  const document: Document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const compiled = new Map<object, ReturnType<typeof ajv.compile>>();

  /** The documented schema of an answer: its operation's, by status, else the operation's default. */
  function schemaOf(method: string, url: string, status: number): object {
    const path = url.split('?', 1)[0] ?? url;
    // The operation of that method whose path matches, a literal path before a template.
    const template = Object.keys(document.paths)
      .filter(
        (each) =>
          document.paths[each]?.[method.toLowerCase()] &&
          new RegExp(`^${each.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
      )
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
    // A path no operation has: the refusal every operation documents.
    const operation =
      (template ? document.paths[template]?.[method.toLowerCase()] : undefined) ??
      (document.paths['/api/user']?.get as Operation);
    const answer = operation.responses[String(status)] ?? operation.responses.default;
    const schema = answer?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${url}: no documented answer for ${status}`);
    return schema;
  }

  return {
    schemaOf,
    /** Why the answer is not what the document describes, or null when it is. */
    mismatch(method: string, url: string, response: LightMyRequestResponse): string | null {
      const schema = schemaOf(method, url, response.statusCode);
      const validate = compiled.get(schema) ?? ajv.compile(schema);
      compiled.set(schema, validate);
      if (validate(response.json())) return null;
      return `${method} ${url} ${response.statusCode} ${response.body.slice(0, 300)}: ${ajv.errorsText(validate.errors)}`;
    },
    validator: (schema: object) => ajv.compile(schema),
  };
}
