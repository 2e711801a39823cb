import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { createConversation, useConversations } from '../../../lib/queries/conversations';

/**
 * /app/conversations: opens the most recently updated conversation; with none, creates
 * "New Conversation" and opens it; if that fails, opens a client-generated id (spec section 2).
 */
export default function ConversationsPage() {
  const navigate = useNavigate();
  const list = useConversations();
  const started = useRef(false);

  useEffect(() => {
    if (started.current || list.isPending) return;
    started.current = true;
    const latest = list.data?.[0];
    if (latest) {
      navigate(`/app/conversations/${latest.id}`, { replace: true });
      return;
    }
    createConversation('New Conversation')
      .then((c) => navigate(`/app/conversations/${c.id}`, { replace: true }))
      .catch(() => navigate(`/app/conversations/${crypto.randomUUID()}`, { replace: true }));
  }, [list.isPending, list.data, navigate]);

  return (
    <div className="flex items-center justify-center gap-2 py-16 text-sm text-muted-foreground" role="status">
      <Spinner />
      Opening your conversation…
    </div>
  );
}
