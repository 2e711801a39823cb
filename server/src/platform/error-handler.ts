import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL } from '../db/unavailable.ts';
import { AppError } from './errors.ts';

type Detail = { loc: (string | number)[]; msg: string; type: string };

function fromZod(err: ZodError, where: string): Detail[] {
  return err.issues.map((i) => ({
    loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
}

/** One place turns every failure into `{detail}` with the right status; 500s carry a request id and no stack. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({ detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const detail: Detail[] = error.validation.map((v) => ({
        loc: [where, ...v.instancePath.split('/').filter(Boolean)],
        msg: v.message ?? 'Invalid value',
        type: v.keyword,
      }));
      return reply.code(422).send({ detail });
    }
    if (error instanceof ZodError) return reply.code(422).send({ detail: fromZod(error, 'body') });
    if (isResponseSerializationError(error)) {
      req.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply.code(500).send({ detail: 'Internal Server Error', request_id: req.id });
    }
    const status = error.statusCode ?? 500;
    if (status === 429)
      return reply.code(429).send({ detail: 'Too many requests. Please slow down and try again shortly.' });
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ detail: 'The request body is too large.' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ detail: 'Unsupported content type.' });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty bodies and the like: the framework's message is safe to show.
      return reply.code(status).send({ detail: error.message || 'Bad request' });
    }
    if (isDatabaseUnavailable(error)) {
      // An outage, not a bug: the client may retry, and the pool reconnects by itself.
      req.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ detail: UNAVAILABLE_DETAIL });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error', request_id: req.id });
  });
}

/** The JSON 404 for API paths (and for everything when no web app is served). */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ detail: `Not found: ${req.method} ${req.url.split('?')[0]}` });
}
