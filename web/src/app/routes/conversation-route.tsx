import { ConversationRunControls } from '../../features/run-controls/components/conversation-run-controls';
import ConversationPage from '../../features/run/pages/conversation-page';

/** /app/conversations/:id: the chat (features/run) with the crew and flow controls composed in. */
export default function ConversationRoute() {
  return <ConversationPage renderRunControls={(props) => <ConversationRunControls {...props} />} />;
}
