import { type ReactNode, useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { OfflineModelBanner } from '../../../components/offline-model-banner';
import { Alert } from '../../../components/ui/alert';
import { buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAuth } from '../../../lib/auth';
import { cn } from '../../../lib/utils';
import { useConversation } from '../api';
import { ChatComposer } from '../components/chat-composer';
import { ChatSettingsPanel, DEFAULT_CHAT_SETTINGS } from '../components/chat-settings';
import { ConversationAttachments } from '../components/conversation-attachments';
import { ConversationHeader } from '../components/conversation-header';
import { MessageLog } from '../components/message-log';
import { loadChatSettings, saveChatSettings } from '../settings-storage';
import type { RenderRunControls } from '../run-controls-seam';
import { useConversationLog } from '../use-conversation-log';

/** /app/conversations/:id. `renderRunControls` is the crew/flow controls the route composes in. */
/** Something the route shows above the chat box (the remaining AI budget). */
export type RenderComposerHint = (props: { replying: boolean }) => ReactNode;

export default function ConversationPage({
  renderRunControls,
  renderComposerHint,
}: {
  renderRunControls?: RenderRunControls;
  renderComposerHint?: RenderComposerHint;
}) {
  const { conversationId = '' } = useParams();
  const conversation = useConversation(conversationId);

  if (conversation.isPending) {
    return (
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-4">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-96 w-full" />
      </div>
    );
  }
  if (conversation.isError || !conversation.data) {
    const missing = (conversation.error as { status?: number } | null)?.status === 404;
    return (
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-4">
        <Alert>
          {missing
            ? 'This conversation does not exist or was deleted.'
            : 'The conversation could not be loaded.'}
        </Alert>
        <Link to="/app/run" className={buttonVariants({ variant: 'outline', className: 'self-start' })}>
          Back to Run
        </Link>
      </div>
    );
  }
  // Keyed by id: another conversation starts with a fresh log, stream and composer.
  return (
    <ConversationView
      key={conversationId}
      conversation={conversation.data}
      renderRunControls={renderRunControls}
      renderComposerHint={renderComposerHint}
    />
  );
}

function ConversationView({
  conversation,
  renderRunControls,
  renderComposerHint,
}: {
  conversation: NonNullable<ReturnType<typeof useConversation>['data']>;
  renderRunControls?: RenderRunControls;
  renderComposerHint?: RenderComposerHint;
}) {
  const log = useConversationLog(conversation.id);
  const userId = useAuth().user?.id ?? 'anonymous';
  const [settings, setSettings] = useState(() =>
    loadChatSettings(DEFAULT_CHAT_SETTINGS, userId, conversation.id),
  );

  // Changes when the log must show the latest message: a sent message, or the end of a run.
  const [followSignal, setFollowSignal] = useState(0);
  const follow = useCallback(() => setFollowSignal((n) => n + 1), []);

  // One grid: on small screens a column (the run bar sits between the log and the composer); on wide
  // ones the run panel, when there is one, takes a side column of its own so the log and the composer
  // keep their room (issue 17: the run panel had squeezed the log to nothing).
  return (
    <div
      data-testid="conversation-layout"
      className={cn(
        'group/conversation mx-auto grid h-[calc(100dvh-7rem)] min-h-[28rem] w-full max-w-4xl gap-3',
        'grid-cols-[minmax(0,1fr)] grid-rows-[auto_minmax(0,1fr)_auto_auto_auto_auto]',
        'lg:has-[[data-run-panel]]:max-w-7xl lg:has-[[data-run-panel]]:grid-cols-[minmax(0,1fr)_minmax(18rem,24rem)]',
        'lg:has-[[data-run-panel]]:grid-rows-[auto_minmax(0,1fr)_auto_auto_auto]',
      )}
    >
      {/* One grid cell for the header and the offline banner: the grid's rows stay as they are. */}
      <div className="flex min-w-0 flex-col gap-2">
        <ConversationHeader
          conversation={conversation}
          replying={log.replying}
          renderRunControls={renderRunControls}
        />
        {/* On a phone, while a run's question waits inline, the question needs the room: the banner
            steps aside (each offline answer says so itself). */}
        <div className="max-lg:group-has-[[data-run-waiting]]/conversation:hidden">
          <OfflineModelBanner />
        </div>
      </div>
      <Card className="flex min-h-0 flex-col p-2 sm:p-3">
        {log.loadError ? (
          <Alert>The messages could not be loaded.</Alert>
        ) : (
          <MessageLog
            store={log.store}
            loading={log.loading}
            hasMore={log.hasMore}
            loadingOlder={log.loadingOlder}
            onLoadOlder={() => void log.loadOlder()}
            followSignal={followSignal}
          />
        )}
      </Card>
      {renderRunControls?.({
        conversationId: conversation.id,
        placement: 'composer',
        replying: log.replying,
        onRunEnded: follow,
      })}
      <ChatSettingsPanel
        value={settings}
        onChange={(next) => {
          setSettings(next);
          saveChatSettings(next, userId, conversation.id);
        }}
      />
      <ConversationAttachments conversationId={conversation.id} />
      <ChatComposer
        replying={log.replying}
        onSend={(text) => {
          follow();
          return log.send(text, settings);
        }}
        notice={log.refusal}
        hint={renderComposerHint?.({ replying: log.replying })}
        onStop={log.stop}
      />
    </div>
  );
}
