import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';

/** A model call that took too long: no first byte or no chunk within the idle limit, or over the total. */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError';
}

export interface TimeoutOptions {
  /** Longest wait for the response and between two stream chunks. */
  idleMs: number;
  /** Longest whole call. */
  totalMs: number;
}

function linkedController(outer: AbortSignal | undefined): {
  controller: AbortController;
  unlink: () => void;
} {
  const controller = new AbortController();
  if (!outer) return { controller, unlink: () => {} };
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) onAbort();
  else outer.addEventListener('abort', onAbort, { once: true });
  return { controller, unlink: () => outer.removeEventListener('abort', onAbort) };
}

/**
 * Wraps a provider model so every caller gets the same limits without passing settings: a stalled
 * stream fails after `idleMs` without data (and the upstream request is aborted), a call fails after
 * `totalMs`, and a consumer that stops reading aborts the upstream request. Retries on 429/5xx stay
 * with the AI SDK (`maxRetries`, honouring Retry-After), which calls doStream again.
 */
export function withTimeouts(model: LanguageModelV3, t: TimeoutOptions): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options: LanguageModelV3CallOptions) {
      const { controller, unlink } = linkedController(options.abortSignal);
      const timer = setTimeout(
        () => controller.abort(new ModelTimeoutError(`The model did not answer within ${t.totalMs} ms.`)),
        t.totalMs,
      );
      try {
        return await model.doGenerate({ ...options, abortSignal: controller.signal });
      } catch (err) {
        throw controller.signal.reason instanceof ModelTimeoutError ? controller.signal.reason : err;
      } finally {
        clearTimeout(timer);
        unlink();
      }
    },
    async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
      const { controller, unlink } = linkedController(options.abortSignal);
      // One idle timer, re-armed per read with refresh() (cheaper than a new timer per chunk); it
      // fails the call only while a read is waiting on the upstream: a slow reader is not a stalled model.
      let waiting = true;
      let fail: (err: Error) => void = (err) => controller.abort(err);
      const idle = setTimeout(() => {
        if (waiting)
          fail(new ModelTimeoutError(`The model stopped responding (no data for ${t.idleMs} ms).`));
      }, t.idleMs);
      const total = setTimeout(
        () => fail(new ModelTimeoutError(`The model did not finish within ${t.totalMs} ms.`)),
        t.totalMs,
      );
      const cleanup = () => {
        clearTimeout(idle);
        clearTimeout(total);
        unlink();
      };
      let inner: LanguageModelV3StreamResult;
      try {
        inner = await model.doStream({ ...options, abortSignal: controller.signal });
      } catch (err) {
        cleanup();
        throw controller.signal.reason instanceof ModelTimeoutError ? controller.signal.reason : err;
      }
      waiting = false;
      const reader = inner.stream.getReader();
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(out) {
          fail = (err) => {
            cleanup();
            controller.abort(err);
            reader.cancel(err).catch(() => {});
            try {
              out.error(err);
            } catch {
              // already closed
            }
          };
        },
        async pull(out) {
          try {
            waiting = true;
            idle.refresh();
            const { done, value } = await reader.read();
            waiting = false;
            if (done) {
              cleanup();
              out.close();
              return;
            }
            out.enqueue(value);
          } catch (err) {
            cleanup();
            const reason = controller.signal.reason;
            try {
              out.error(reason instanceof ModelTimeoutError ? reason : err);
            } catch {
              // already errored by the timer
            }
          }
        },
        cancel(reason) {
          // The consumer went away: stop the upstream request too.
          cleanup();
          controller.abort(reason);
          return reader.cancel(reason).catch(() => {});
        },
      });
      return { ...inner, stream };
    },
  };
}
