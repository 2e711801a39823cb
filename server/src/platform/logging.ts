import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Removes secrets that can appear in URLs (the SSE `token` / `ticket` query parameters). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|ticket|access_token)=)[^&#]*/gi, '$1[REDACTED]');
}

/** `stream`: where the lines go instead of stdout (tests read what the app warned about). */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[REDACTED]' },
    serializers: {
      req(req: { id: string; method: string; url: string; ip?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip };
      },
    },
  };
}

type ChildFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Parent = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * Fastify's childLoggerFactory: a request's logger that becomes a real pino child only when a line
 * at an enabled level is written. Fastify makes a child per request, and pino's child() (bindings,
 * level, serializers) was a few per cent of a burst of chat turns' CPU, while at the usual levels
 * most requests never log a line. A route's own level or serializers get a real child at once.
 */
export const lazyChildLogger: ChildFactory = (logger, bindings, opts) => {
  if (opts && Object.keys(opts).length > 0) return logger.child(bindings, opts);
  const parent = logger as Parent;
  let real: Parent | null = null;
  const child = () => {
    real ??= parent.child(bindings) as Parent;
    return real;
  };
  const lazy: Record<string, unknown> = {
    isLevelEnabled: (level: string) => (real ?? parent).isLevelEnabled(level),
    child: (b: Record<string, unknown>, o?: Record<string, unknown>) => child().child(b, o),
    bindings: () => ({ ...((parent as { bindings?: () => object }).bindings?.() ?? {}), ...bindings }),
    silent: () => {},
  };
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (!(real ?? parent).isLevelEnabled(level)) return;
      (child()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  Object.defineProperty(lazy, 'level', {
    get: () => (real ?? parent).level,
    set: (value: string) => {
      child().level = value;
    },
  });
  return lazy as unknown as FastifyBaseLogger;
};
