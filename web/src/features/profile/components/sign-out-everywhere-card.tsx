import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { serverDetail } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { notify } from '../../../lib/toast';
import { useSignOutEverywhere } from '../api';

const CONSEQUENCE =
  'Every device, this one included, is signed out and all your API keys are revoked: tools using them stop working at once.';

/** For a lost device or a leaked key: ends every session and key of the account in one step. */
export function SignOutEverywhereCard() {
  const [confirming, setConfirming] = useState(false);
  const signOutEverywhere = useSignOutEverywhere();
  const { signOut } = useAuth();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign out everywhere</CardTitle>
        <CardDescription>{CONSEQUENCE}</CardDescription>
      </CardHeader>
      <CardContent className="flex justify-end">
        <Button variant="outline" onClick={() => setConfirming(true)}>
          Sign out everywhere
        </Button>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Sign out everywhere?"
        description={CONSEQUENCE}
        confirmLabel="Sign out and revoke keys"
        pending={signOutEverywhere.isPending}
        onConfirm={() =>
          signOutEverywhere.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notify.success('Signed out everywhere');
              // This session has ended on the server too: drop it here.
              signOut();
            },
            onError: (err) => notify.error('Sign out failed', serverDetail(err) ?? 'Please try again.'),
          })
        }
      />
    </Card>
  );
}
