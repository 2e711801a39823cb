/** One field's problem in a 422: where it is (`['body', 'title']`), what is wrong, a machine-readable type. */
export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Typed HTTP errors: every handler throws one of these, the error handler turns it into `{detail}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | FieldProblem[],
    /** Headers the answer carries (`Retry-After` and `x-ratelimit-*` of a refused limited call). */
    readonly headers?: Record<string, string>,
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }
}

export const badRequest = (detail: string) => new AppError(400, detail);
export const unauthorized = (detail = 'Not authenticated') => new AppError(401, detail);
export const forbidden = (detail = 'You do not have permission to do this.') => new AppError(403, detail);
/** Also used for records the caller may not see: never leak existence. */
export const notFound = (detail = 'Not found') => new AppError(404, detail);
export const conflict = (detail: string) => new AppError(409, detail);
export const tooMany = (detail: string) => new AppError(429, detail);
export const unavailable = (detail: string) => new AppError(503, detail);
