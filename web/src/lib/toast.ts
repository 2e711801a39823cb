import { toast } from 'sonner';

/** Toast durations from the spec (section 9): 3000 ms for short notices, 5000 ms for errors. */
export const TOAST_SHORT_MS = 3000;
export const TOAST_ERROR_MS = 5000;

type Options = { id?: string };

export const notify = {
  success: (title: string, description?: string, opts: Options = {}) =>
    toast.success(title, { description, duration: TOAST_SHORT_MS, ...opts }),
  info: (title: string, description?: string, opts: Options = {}) =>
    toast.info(title, { description, duration: TOAST_SHORT_MS, ...opts }),
  warning: (title: string, description?: string, opts: Options = {}) =>
    toast.warning(title, { description, duration: TOAST_SHORT_MS, ...opts }),
  error: (title: string, description?: string, opts: Options = {}) =>
    toast.error(title, { description, duration: TOAST_ERROR_MS, ...opts }),
};
