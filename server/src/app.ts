import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import { createDb, type DbHandle } from './db/index.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { registerAdviceUndoHandlers } from './modules/advice/advice.undo.ts';
import { registerAdviceRunSteps } from './modules/advice/advice.run-step.ts';
import { adviceRoutes } from './modules/advice/advice.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { registerCommsInboxSources } from './modules/comms/comms.messages.ts';
import { briefsRoutes } from './modules/briefs/briefs.routes.ts';
import { commsRoutes } from './modules/comms/comms.routes.ts';
import { connectionsRoutes } from './modules/connections/connections.routes.ts';
import { contactsRoutes } from './modules/contacts/contacts.routes.ts';
import { conversationsRoutes } from './modules/conversations/conversations.routes.ts';
import { appendConversationMessage, ownConversation } from './modules/conversations/conversations.service.ts';
import { factoryRoutes } from './modules/factory/factory.routes.ts';
import { outboundAllowlistRoutes } from './modules/outbound-allowlist/outbound-allowlist.routes.ts';
import { toolsByIds } from './modules/factory/factory.service.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { goalsRoutes } from './modules/goals/goals.routes.ts';
import { inboxRoutes } from './modules/inbox/inbox.routes.ts';
import { openInboxItem, resolveInboxItem } from './modules/inbox/inbox.service.ts';
import { journalsRoutes } from './modules/journals/journals.routes.ts';
import { memoryRoutes } from './modules/memory/memory.routes.ts';
import { registerMemoryUndoHandlers } from './modules/memory/memory.undo.ts';
import { modelsRoutes } from './modules/models/models.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { runEnginePlugin } from './modules/runs/engine/engine.ts';
import type { InboxPort } from './modules/runs/engine/engine-registry.ts';
import { registerRunInboxSources } from './modules/runs/runs.inbox-sources.ts';
import { runsRoutes } from './modules/runs/runs.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { taskSuggestionsRoutes } from './modules/task-suggestions/task-suggestions.routes.ts';
import { registerTaskSuggestionInboxSources } from './modules/task-suggestions/task-suggestions.service.ts';
import { tasksRoutes } from './modules/tasks/tasks.routes.ts';
import { registerTaskUndoHandlers } from './modules/tasks/tasks.undo.ts';
import { usageRoutes } from './modules/usage/usage.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { emailOwnershipRoutes } from './modules/users/email-ownership.routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { mcpRoutes } from './modules/mcp/mcp.routes.ts';
import { oidcRoutes } from './modules/auth/oidc.routes.ts';
import { getUserSummary } from './modules/users/users.service.ts';
import { memberAccounts } from './modules/users/users.member-accounts.ts';
import { authPlugin, sessionReader } from './platform/auth/authenticate.ts';
import { ReadCache } from './platform/read-cache.ts';
import { registerResponseCache } from './platform/response-cache.ts';
import { LoginGuard } from './platform/auth/login-guard.ts';
import { TokenSigner } from './platform/auth/tokens.ts';
import type { AppContext } from './platform/context.ts';
import { createLimits } from './platform/limits/limits.ts';
import { registerDurableResponses } from './platform/durable-responses.ts';
import { registerEtags } from './platform/concurrency.ts';
import { registerEchoBodies } from './platform/echo-bodies.ts';
import { registerErrorHandler, sendNotFound } from './platform/error-handler.ts';
import { registerDrainGate } from './platform/graceful-drain.ts';
import { registerCompression } from './platform/compression.ts';
import { registerNulGuard } from './platform/nul-guard.ts';
import { lazyChildLogger, loggerOptions } from './platform/logging.ts';
import { type EventBus, InProcessEventBus } from './platform/realtime/event-bus.ts';
import { PostgresEventBus } from './platform/realtime/pg-event-bus.ts';
import { StreamRegistry } from './platform/realtime/stream-registry.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { registerSpa } from './platform/spa.ts';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /**
   * SIGTERM: answer new requests 503 (Retry-After), let running ones finish for up to `graceMs`
   * (default {@link DRAIN_GRACE_MS}), then stop the rest, end streams, close the server and the database.
   */
  drain(graceMs?: number): Promise<void>;
}

export interface BuildOptions {
  /** Reuse an open database (tests); otherwise one is opened from config.db and closed on shutdown. */
  database?: DbHandle;
  /** Run migrations before serving (default true). */
  migrate?: boolean;
  /** Serve the built SPA from config.webDist (default true). */
  serveWeb?: boolean;
  /** Where log lines go instead of stdout (tests capture warnings). */
  logStream?: DestinationStream;
}

/** How long a drain lets in-flight requests (chat replies included) finish before stopping them. */
export const DRAIN_GRACE_MS = 5000;

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Toast and dialog libraries set inline styles at run time; scripts stay strictly 'self'.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  mediaSrc: ["'self'", 'blob:'],
  frameSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<BuiltApp> {
  const handle = opts.database ?? createDb(config.db);
  if (opts.migrate !== false) await migrateToLatest(handle.db, handle.dialect);

  const app = Fastify({
    logger: loggerOptions(config.logLevel, opts.logStream),
    childLoggerFactory: lazyChildLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The drain gate answers while closing ({detail}, Retry-After), not Fastify's bare 503.
    return503OnClosing: false,
    // Errors raised before routing (a URL that is not valid percent-encoding) answer {detail} too.
    frameworkErrors: (err, _req, reply) => {
      (reply as FastifyReply).code(err.statusCode ?? 400).send({ detail: err.message });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const limits = createLimits(config.limits);
  const ctx: AppContext = {
    db: handle.db,
    dialect: handle.dialect,
    changes: config.readCacheBytes > 0 ? handle.changes : null,
    // A sixty-fourth of the read cache (pages take 59/64, sessions 4/64).
    memberships:
      config.readCacheBytes > 0
        ? new ReadCache(handle.changes, Math.floor(config.readCacheBytes / 64))
        : null,
    durability: handle.durability,
    config,
    signer: new TokenSigner(config.jwtSecret),
    loginGuard: new LoginGuard(config.loginMaxFailures, undefined, limits.clock),
    limits,
    bus: await createBus(config, handle, (msg) => app.log.warn(msg)),
    streams: new StreamRegistry(handle.db),
  };

  const gate = registerDrainGate(app);

  registerErrorHandler(app);
  registerNulGuard(app);
  // The response cache first: its onRequest stamp must precede the session read of the auth hook.
  registerResponseCache(app, ctx.changes, config.readCacheBytes);
  await app.register(authPlugin, {
    // The database's clock even with the read cache off: it also tells whether the memberships read
    // with a session still hold (platform/auth/caller-memberships.ts).
    sessions: sessionReader(ctx.db, ctx.signer, handle.changes, config.readCacheBytes),
  });
  registerEchoBodies(app);
  registerEtags(app);
  // After the cache's own onSend, so a page is stored (for the requests behind it) while it waits.
  registerDurableResponses(app, handle.durability);
  // Last of the onSend hooks: the cache keeps plain bodies, and nothing is compressed while it waits.
  await registerCompression(app);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Command Centre API', version: '0.1.0', description: 'Executive AI command centre' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The app's own CSP (above) covers the docs: the plugin's static CSP forbids the inline styles
    // Swagger UI sets, so the docs page logged a CSP error on every load. No external validator badge.
    staticCSP: false,
    uiConfig: { docExpansion: 'list', validatorUrl: null },
  });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  await app.register(systemRoutes, { ctx, isDraining: gate.isDraining });
  await app.register(authRoutes, { ctx });
  await app.register(oidcRoutes, { ctx });
  await app.register(usersRoutes, { ctx });
  await app.register(emailOwnershipRoutes, { ctx });
  await app.register(apiKeysRoutes, { ctx });
  await app.register(mcpRoutes, { ctx });
  await app.register(organizationsRoutes, { ctx, accounts: memberAccounts });
  await app.register(goalsRoutes, { ctx });
  await app.register(adviceRoutes, { ctx });
  await app.register(tasksRoutes, { ctx });
  await app.register(taskSuggestionsRoutes, { ctx });
  await app.register(journalsRoutes, { ctx });
  await app.register(contactsRoutes, { ctx });
  await app.register(modelsRoutes, { ctx });
  await app.register(memoryRoutes, { ctx });
  await app.register(connectionsRoutes, { ctx });
  await app.register(commsRoutes, { ctx });
  await app.register(conversationsRoutes, { ctx });
  // The run engine imports no other module: the modules it needs are wired in here.
  await app.register(runEnginePlugin, {
    ctx,
    ports: {
      users: getUserSummary,
      tools: toolsByIds,
      conversationLog: appendConversationMessage,
      inbox: runInboxPort(ctx),
    },
    steps: [registerAdviceRunSteps],
  });
  await app.register(factoryRoutes, { ctx });
  await app.register(outboundAllowlistRoutes, { ctx });
  await app.register(runsRoutes, { ctx });
  await app.register(filesRoutes, { ctx, ownConversation });
  // Registrations (docs/architecture.md): a module adds its kinds to the registry of a module that must
  // not import it, through the `register…` function listed here.
  await app.register(activityRoutes, {
    ctx,
    undo: [registerTaskUndoHandlers, registerAdviceUndoHandlers, registerMemoryUndoHandlers],
    actors: getUserSummary,
  });
  // The approvals inbox: each source's own actions answer for its items (acting there = acting in the source).
  await app.register(inboxRoutes, {
    ctx,
    sources: [registerTaskSuggestionInboxSources, registerRunInboxSources, registerCommsInboxSources],
  });
  await app.register(briefsRoutes, { ctx });
  await app.register(usageRoutes, { ctx });

  const servingWeb = opts.serveWeb !== false && (await registerSpa(app, config.webDist));
  if (!servingWeb) app.setNotFoundHandler(sendNotFound);

  app.addHook('preClose', async () => {
    // Hijacked SSE responses would keep the server open: end them first.
    ctx.streams.drain();
  });
  app.addHook('onClose', async () => {
    await ctx.bus.close();
    if (!opts.database) await handle.close();
  });

  return {
    app,
    ctx,
    async drain(graceMs = DRAIN_GRACE_MS) {
      // Requests already running (chat replies included) finish within the grace period; then the app
      // closes: replies still being written are stopped (preClose), streams end, the database closes.
      await gate.start(graceMs);
      // A client that vanished mid-request (a half-open socket) must not hold the shutdown forever.
      const force = setTimeout(() => app.server.closeAllConnections?.(), 3000);
      force.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
    },
  };
}

/** The run engine's way into the approvals inbox (the engine imports no other module). */
function runInboxPort(ctx: AppContext): InboxPort {
  return {
    open: (item) =>
      openInboxItem(ctx, {
        kind: item.kind,
        sourceType: 'run',
        sourceId: item.sourceId,
        sourceUrl: item.sourceUrl,
        assigneeUserId: item.assigneeUserId,
        title: item.title,
        summary: item.summary,
        details: { ...item.details, run_id: item.runId },
      }),
    resolve: (kind, sourceId, outcome) => resolveInboxItem(ctx, kind, sourceId, outcome),
  };
}

async function createBus(config: AppConfig, handle: DbHandle, log: (m: string) => void): Promise<EventBus> {
  if (config.db.kind !== 'postgres') return new InProcessEventBus();
  const bus = new PostgresEventBus(
    config.db.url,
    async (channel, text) => {
      await sql`select pg_notify(${channel}, ${text})`.execute(handle.db);
    },
    log,
  );
  await bus.whenReady();
  return bus;
}
