import { ConversationRunControls } from '../../features/runs/components/conversation-run-controls';
import ConversationPage from '../../features/conversations/pages/conversation-page';
import { BudgetHint } from '../../features/usage/components/budget-hint';

/**
 * /app/conversations/:id: the chat (features/conversations) with the crew and flow controls composed in, and the
 * remaining AI budget above the box when it runs low (features/usage).
 */
export default function ConversationRoute() {
  return (
    <ConversationPage
      renderRunControls={(props) => <ConversationRunControls {...props} />}
      renderComposerHint={({ replying }) => <BudgetHint replying={replying} />}
    />
  );
}
