import { MODELS_ADMIN_PATH } from '@cc/contract';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth';
import { useModels } from '../lib/queries/models';

/** The banner's words (docs/decisions/ 2026-11-29, "The offline-engine banner"). */
export const OFFLINE_BANNER_TEXT = 'AI answers come from the built-in offline engine: no model is connected.';
export const OFFLINE_BANNER_ADMIN_LINK = 'Connect one in Super Admin → Models';
export const OFFLINE_BANNER_ASK = 'Ask an administrator to connect a model.';

/**
 * One line on the conversation page and the AI Factory while only the offline engine answers: the
 * platform admin gets a link to Super Admin → Models, everyone else whom to ask.
 */
export function OfflineModelBanner() {
  const models = useModels();
  const { user } = useAuth();
  // The placeholder (before the server answers) is not offline: the banner never flashes.
  if (!models.data?.offline || !user) return null;
  return (
    <p
      role="status"
      data-testid="offline-model-banner"
      className="truncate rounded-md border border-[#1e3a8a] bg-[#0f1d3d] px-3 py-1.5 text-info-text text-sm"
    >
      {OFFLINE_BANNER_TEXT}{' '}
      {user.user_level === 'admin' ? (
        <Link to={MODELS_ADMIN_PATH} className="font-medium underline underline-offset-2">
          {OFFLINE_BANNER_ADMIN_LINK}
        </Link>
      ) : (
        OFFLINE_BANNER_ASK
      )}
    </p>
  );
}
