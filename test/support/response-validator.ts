import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks every answer the tests' HTTP helper receives against the served OpenAPI document: the
 * operation by method and path template, the status among the documented ones, and a JSON body
 * against that status's schema (ajv, as a client developer's tooling would). The wrapper validates
 * success bodies with zod on the way out; this is the other side, the document a client is given,
 * errors included.
 */
type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };

interface Operation {
  method: string;
  regex: RegExp;
  op: any;
}

export class ResponseValidator {
  private readonly ajv = new Ajv2020.default({ strict: false, allErrors: true });
  private readonly defs: Record<string, unknown>;
  private readonly operations: Operation[];
  private readonly compiled = new Map<string, (body: unknown) => boolean>();

  constructor(doc: Doc) {
    addFormats.default(this.ajv);
    this.defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
    this.operations = Object.entries(doc.paths)
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          method: method.toUpperCase(),
          params: (path.match(/\{/g) ?? []).length,
          regex: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
          op,
        })),
      )
      // Literal segments win over parameters, as in API Gateway.
      .sort((a, b) => a.params - b.params);
  }

  /** The problems of one answer (empty when it matches the document, or is not an operation of it). */
  check(
    method: string,
    url: string,
    request: { accept?: string },
    status: number,
    contentType: string | null,
    body: unknown,
  ): string[] {
    // The document describes what API clients get; a browser asking for a page (the reference's
    // sign-in form) is not one of them.
    if (request.accept?.includes('text/html')) return [];
    const path = new URL(url).pathname;
    const m = method.toUpperCase();
    const found = this.operations.find((o) => o.method === m && o.regex.test(path));
    if (!found) return [];
    const responses = found.op.responses ?? {};
    const documented = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    const where = `${m} ${path} → ${status}`;
    if (!documented) return [`${where}: status not documented (${Object.keys(responses).join(', ')})`];
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return [];
    if (!contentType?.startsWith('application/json')) return [`${where}: documented as JSON, answered ${contentType}`];
    const key = `${m} ${found.regex.source} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const fn = this.ajv.compile({
        $defs: this.defs,
        ...JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')),
      });
      validate = (b: unknown) => {
        const ok = fn(b);
        if (!ok) (validate as { errors?: unknown }).errors = fn.errors;
        return ok as boolean;
      };
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return [`${where}: body does not match the schema: ${this.ajv.errorsText((validate as any).errors)}`];
  }
}
