import type { FastifyServerOptions } from 'fastify';

/** Removes secrets that can appear in URLs (the SSE `token` / `ticket` query parameters). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|ticket|access_token)=)[^&#]*/gi, '$1[REDACTED]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[REDACTED]' },
    serializers: {
      req(req: { id: string; method: string; url: string; ip?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip };
      },
    },
  };
}
