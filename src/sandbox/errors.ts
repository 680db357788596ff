/**
 * The sandbox's error answers (interface document, "Errors"; docs/assumptions.md, "error codes and bodies"):
 * an envelope whose `code` is the HTTP status. In a module of their own so the state machine and the
 * HTTP layer both use them without importing each other.
 */
/** A field error in an error envelope: `field` is a path inside `request`, e.g. `order.shipments[0].description`. */
export interface FieldError {
  field: string;
  message: string;
}

/** An error envelope to send: HTTP status = envelope code, a message, and optional field errors or result. */
export class SandboxHttpError extends Error {
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly result: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string, extra: { errors?: FieldError[]; result?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'SandboxHttpError';
    this.status = status;
    this.errors = extra.errors;
    this.result = extra.result;
    this.headers = extra.headers;
  }
}

/** 400 invalid request listing every field error; the message names the first one. */
export function invalidRequest(errors: FieldError[], message?: string): SandboxHttpError {
  const first = errors[0];
  const summary =
    message ??
    (first === undefined
      ? 'invalid request'
      : `invalid request: ${first.field === '' ? '' : `${first.field}: `}${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`);
  return new SandboxHttpError(400, summary, { errors });
}

/** 404 unknown id; `errors` may name the request fields that hold the unknown ids. */
export function notFound(message: string, errors?: FieldError[]): SandboxHttpError {
  return new SandboxHttpError(404, message, errors === undefined ? {} : { errors });
}

/** 409 the resource is not in a state that allows the operation; `errors` may name the fields concerned. */
export function conflict(message: string, errors?: FieldError[]): SandboxHttpError {
  return new SandboxHttpError(409, message, errors === undefined ? {} : { errors });
}
